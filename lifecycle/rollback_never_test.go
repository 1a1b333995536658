package lifecycle

import (
	"errors"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
)

// TestRollbackNeverPublished tells a name no publish ever had from a skill whose publishes
// are all rolled back and from one committed with git, and suggests the published names close
// to it.
func TestRollbackNeverPublished(t *testing.T) {
	dir := newRepo(t)
	publishedSkill(t, dir, "dates", cleanLine)
	publishedSkill(t, dir, "notes", cleanLine)
	if _, err := open(t, dir).Rollback("notes", "", lead); err != nil {
		t.Fatal(err)
	}
	testenv.WriteFiles(t, dir, map[string]string{"skills/plain/SKILL.md": testenv.SkillMD("plain", cleanLine)})
	testenv.Git(t, dir, "add", "skills/plain")
	testenv.Git(t, dir, "commit", "-q", "--no-verify", "-m", "add plain with git")
	for _, tc := range []struct{ name, want, not string }{
		{"plain", "no publish of this skill on main", "never published"},
		{"weather", "no skill of this name was ever published on main", "close names"},
		{"date", "published skills with close names: dates", "rolled back already"},
		{"note", "close names: notes", "rolled back already"},
		{"notes", "every publish of this skill on main is rolled back already", "never published"},
	} {
		_, err := open(t, dir).Rollback(tc.name, "", lead)
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), tc.not) {
			t.Errorf("rollback %s: %v; want not found, saying %q and not %q", tc.name, err, tc.want, tc.not)
		}
	}
}
