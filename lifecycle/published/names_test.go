package published

import (
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
)

// TestSkillFolder checks the one lookup of the folder that holds a skill name.
func TestSkillFolder(t *testing.T) {
	dir := newRepo(t, map[string]string{
		"skills/ops/deploy/SKILL.md": testenv.SkillMD("deploy", cleanLine),
		"skills/lint/SKILL.md":       testenv.SkillMD("lint", cleanLine),
	})
	r := channel(t, dir)
	for name, want := range map[string]string{"deploy": "skills/ops/deploy", "lint": "skills/lint", "dep": "", "zzz": ""} {
		got, err := SkillFolder(r.git, r.v.Tree, r.v.Config.SkillsDir, name, "main")
		if err != nil || got != want {
			t.Errorf("SkillFolder(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
}
