package lifecycle

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
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

// TestLogSameWithCommitGraph: with git's commit-graph and its changed-path filters, the
// trail of plain commits (some leaving the skills folder alone, which the filters answer)
// is the trail read without them.
func TestLogSameWithCommitGraph(t *testing.T) {
	dir := newRepo(t)
	publishedSkill(t, dir, "alpha", cleanLine)
	testenv.WriteFiles(t, dir, map[string]string{"docs/notes.md": "notes\n"})
	testenv.CommitAll(t, dir, "docs only")
	testenv.WriteFiles(t, dir, map[string]string{"skills/beta/SKILL.md": testenv.SkillMD("beta", cleanLine)})
	testenv.CommitAll(t, dir, "add beta by hand")
	testenv.WriteFiles(t, dir, map[string]string{"docs/notes.md": "more notes\n"})
	testenv.CommitAll(t, dir, "docs again")
	var without [][]LogEntry
	for _, name := range []string{"", "alpha", "beta"} {
		testenv.RemoveAll(t, filepath.Join(dir, ".git", "skillgit", "cache"))
		l, err := open(t, dir).Log(name)
		if err != nil {
			t.Fatal(err)
		}
		without = append(without, l)
	}
	testenv.Git(t, dir, "commit-graph", "write", "--reachable", "--changed-paths")
	for i, name := range []string{"", "alpha", "beta"} {
		testenv.RemoveAll(t, filepath.Join(dir, ".git", "skillgit", "cache"))
		r := open(t, dir)
		if r.git.History().MayHaveChanged(plumbing.NewHash(without[0][0].Commit), "skills") {
			t.Fatal("the changed-path filter of the last commit is not read")
		}
		l, err := r.Log(name)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(without[i], l); diff != "" {
			t.Errorf("log %q with the graph differs (-without +with):\n%s", name, diff)
		}
	}
	if len(without[2]) != 1 || without[2][0].Subject != "add beta by hand" {
		t.Errorf("log beta: %+v", without[2])
	}
}
