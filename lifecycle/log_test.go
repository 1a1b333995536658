package lifecycle

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/skillgit/skillgit/internal/testenv"
)

// TestLogPlainCommitsCached checks that a commit made with git is in the trail as a plain
// commit of the skills it changed, and that the trail cache serves the same answer, survives
// a damaged file and is rebuilt when deleted.
func TestLogPlainCommitsCached(t *testing.T) {
	dir := newRepo(t)
	publishedSkill(t, dir, "alpha", cleanLine)
	testenv.WriteFiles(t, dir, map[string]string{"skills/alpha/SKILL.md": testenv.SkillMD("alpha", cleanLine, "Edited by hand."),
		"skills/beta/SKILL.md": testenv.SkillMD("beta", cleanLine)})
	testenv.CommitAll(t, dir, "hand edit")
	first, err := open(t, dir).Log("")
	if err != nil {
		t.Fatal(err)
	}
	if e := first[0]; e.Action != "commit" || e.Via != "git commit" || !cmp.Equal(e.Skills, []string{"alpha", "beta"}) {
		t.Fatalf("plain commit entry: %+v", e)
	}
	files, _ := filepath.Glob(filepath.Join(dir, ".git", "skillgit", "cache", "trail-v1-*.txt"))
	if len(files) != 1 {
		t.Fatalf("trail cache files: %v", files)
	}
	for name, content := range map[string][]byte{"cached": nil, "damaged": []byte("zz not-a-hash\n0123 x\n"), "deleted": {}} {
		switch name {
		case "damaged":
			if err := os.WriteFile(files[0], content, 0o644); err != nil {
				t.Fatal(err)
			}
		case "deleted":
			testenv.RemoveAll(t, files[0])
		}
		again, err := open(t, dir).Log("")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(first, again); diff != "" {
			t.Errorf("%s: log differs (-first +again):\n%s", name, diff)
		}
	}
	only, err := open(t, dir).Log("beta")
	if err != nil || len(only) != 1 || only[0].Action != "commit" {
		t.Fatalf("log beta: %v %+v", err, only)
	}
}
