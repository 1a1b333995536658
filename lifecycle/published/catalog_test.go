package published

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/internal/testenv"
)

// listing is what a catalog result says, in a form cmp can compare.
type listing struct {
	Skills   []string
	Problems []catalog.Problem
	Folders  []string
}

func listingOf(res *catalog.Result) listing {
	l := listing{Problems: res.Problems, Folders: res.Folders}
	for _, s := range res.Skills {
		l.Skills = append(l.Skills, fmt.Sprintf("%s %s %q", s.Name, s.Dir, s.Description))
	}
	return l
}

// TestPublishedAfterChanges checks that the listing derived from the previous one after each
// change equals a full discovery of the same tree: patches, new skills in categories,
// deletions, a skill that no longer loads, a name used twice and then fixed.
func TestPublishedAfterChanges(t *testing.T) {
	dir := newRepo(t, map[string]string{"skills/alpha/SKILL.md": testenv.SkillMD("alpha", cleanLine)})
	steps := []struct {
		name  string
		files map[string]string
		gone  []string
	}{
		{"patch", map[string]string{"skills/alpha/SKILL.md": testenv.SkillMD("alpha", cleanLine, "More.")}, nil},
		{"new in a category", map[string]string{"skills/review/beta/SKILL.md": testenv.SkillMD("beta", cleanLine)}, nil},
		{"broken frontmatter", map[string]string{"skills/review/beta/SKILL.md": "---\nname: [beta\n---\n"}, nil},
		{"fixed again", map[string]string{"skills/review/beta/SKILL.md": testenv.SkillMD("beta", cleanLine)}, nil},
		{"a name used twice", map[string]string{"skills/gamma/SKILL.md": testenv.SkillMD("alpha", cleanLine)}, nil},
		{"the duplicate removed", nil, []string{"skills/gamma"}},
		{"deleted", nil, []string{"skills/alpha"}},
		{"hidden and deep", map[string]string{"skills/.hidden/x/SKILL.md": testenv.SkillMD("x", cleanLine),
			"skills/a/b/c/d/e/f/g/SKILL.md": testenv.SkillMD("g", cleanLine)}, nil},
	}
	for _, st := range steps {
		testenv.WriteFiles(t, dir, st.files)
		for _, g := range st.gone {
			testenv.RemoveAll(t, dir+"/"+g)
		}
		testenv.CommitAll(t, dir, st.name)
		c := channel(t, dir)
		got, err := c.List()
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		want, err := catalog.Discover(c.git.Objects().TreeFS(skillsTree(t, c)), ".", listingOptions)
		if err != nil {
			t.Fatal(err)
		}
		prefix(want, c.v.Config.SkillsDir)
		if diff := cmp.Diff(listingOf(want), listingOf(got)); diff != "" {
			t.Errorf("%s: the derived listing differs from discovery (-want +got):\n%s", st.name, diff)
		}
	}
}
