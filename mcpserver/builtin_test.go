package mcpserver

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/skills"
)

// TestBuiltinSkillNamesTheTools checks that the built-in skill that teaches agents skillgit
// names every tool the server has, so the two cannot drift apart.
func TestBuiltinSkillNamesTheTools(t *testing.T) {
	data, err := fs.ReadFile(skills.FS(), "skillgit/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	for name := range wantRequired {
		if !strings.Contains(string(data), "`"+name+"`") {
			t.Errorf("skills/skillgit/SKILL.md does not name the tool %s", name)
		}
	}
}
