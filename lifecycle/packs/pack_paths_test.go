package packs

import (
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
)

// TestPackRefusesUnsafeNames serves packs holding names the path policy refuses; each update
// skips the skill holding the name, saying which, and proposes the other.
func TestPackRefusesUnsafeNames(t *testing.T) {
	testenv.Hermetic(t, nil)
	for _, tc := range []struct{ name, file, want string }{
		{"escape", "skills/evil/a\x1b[2Jb.md", "control character"},
		{"device", "skills/evil/CON", "device name"},
		{"device with extension", "skills/evil/scripts/aux.txt", "device name"},
		{"look-alike", "skills/evil/SKІLL.md", "looks like SKILL.md"},
		{"case", "skills/evil/Notes.md", "differ only in case"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			src := packSource(t, base, "pack", map[string]string{
				"skills/good/SKILL.md": testenv.SkillMD("good", cleanLine),
				"skills/evil/SKILL.md": testenv.SkillMD("evil", cleanLine),
				"skills/evil/notes.md": "notes\n",
				tc.file:                "x\n",
			})
			skippedUpdate(t, "file://"+src, tc.want, "skills/evil/")
		})
	}
}
