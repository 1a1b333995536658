package skilltree_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/skilltree"
)

// treesRepo makes a git repository whose commit "base" holds two skills (one in a category
// folder) and a README, and whose HEAD patches the categorized skill, adds a skill, drops
// a file in the skills folder that belongs to no skill and edits the README. It returns the
// repository and the two root trees.
func treesRepo(t *testing.T) (*gitstore.Repo, gitstore.Hash, gitstore.Hash) {
	t.Helper()
	testenv.Hermetic(t, nil)
	dir := filepath.Join(t.TempDir(), "repo")
	testenv.Git(t, "", "init", "-q", "-b", "main", dir)
	testenv.WriteFiles(t, dir, map[string]string{
		"README.md":                  "skills\n",
		"skills/alpha/SKILL.md":      testenv.SkillMD("alpha", "Use the date command."),
		"skills/ops/deploy/SKILL.md": testenv.SkillMD("deploy", "Run make deploy."),
	})
	testenv.CommitAll(t, dir, "base")
	testenv.Git(t, dir, "tag", "base")
	testenv.WriteFiles(t, dir, map[string]string{
		"README.md":                  "skills, patched\n",
		"skills/ops/deploy/SKILL.md": testenv.SkillMD("deploy", "Run make deploy, then check the logs."),
		"skills/lint/SKILL.md":       testenv.SkillMD("lint", "Run the linter."),
		"skills/NOTES.txt":           "not a skill\n",
	})
	testenv.CommitAll(t, dir, "head")
	g, err := gitstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	tree := func(rev string) gitstore.Hash {
		out := strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", rev+"^{tree}"))
		h := plumbing.NewHash(out)
		if h.String() != out {
			t.Fatalf("git rev-parse %s^{tree}: %q", rev, out)
		}
		return h
	}
	return g, tree("base"), tree("HEAD")
}

// TestChanges checks which skill folders two root trees differ in, what the folders' trees
// are on each side, and what differs besides.
func TestChanges(t *testing.T) {
	g, base, head := treesRepo(t)
	st := skilltree.New(g, "skills")
	changes, outside, err := st.Changes(base, head)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, c := range changes {
		paths = append(paths, c.Path)
		wantBase, err := skilltree.FolderAt(g, base, c.Path)
		if err != nil {
			t.Fatal(err)
		}
		wantHead, err := skilltree.FolderAt(g, head, c.Path)
		if err != nil {
			t.Fatal(err)
		}
		if c.Base != wantBase || c.Head != wantHead {
			t.Errorf("%s: base %s head %s; want %s and %s", c.Path, c.Base, c.Head, wantBase, wantHead)
		}
	}
	if diff := cmp.Diff([]string{"skills/lint", "skills/ops/deploy"}, paths); diff != "" {
		t.Errorf("changed folders (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"files outside skills/", "skills/NOTES.txt"}, outside); diff != "" {
		t.Errorf("what differs besides (-want +got):\n%s", diff)
	}
	if changes[0].Base != (gitstore.Hash{}) || changes[0].Name() != "lint" {
		t.Errorf("the new folder: %+v, named %q", changes[0], changes[0].Name())
	}
}

// TestClash checks that a folder whose skill takes a name another category folder already
// holds on the channel is refused, and that a patch of a skill is not.
func TestClash(t *testing.T) {
	g, base, head := treesRepo(t)
	st := skilltree.New(g, "skills")
	changes, _, err := st.Changes(base, head)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Clash(base, head, changes, "refs/heads/main"); err != nil {
		t.Fatalf("a new name and a patch: %v", err)
	}
	alpha, err := skilltree.FolderAt(g, base, "skills/alpha")
	if err != nil {
		t.Fatal(err)
	}
	second, err := g.Writes().ReplacePath(head, "skills/tools/alpha", skilltree.DirEntry(alpha))
	if err != nil {
		t.Fatal(err)
	}
	twin := skilltree.Change{Path: "skills/tools/alpha", Head: alpha}
	err = st.Clash(base, second, []skilltree.Change{twin}, "refs/heads/main")
	if !errors.Is(err, skilltree.ErrConflict) || !strings.Contains(err.Error(), "already has the skill alpha at skills/alpha") {
		t.Fatalf("a second folder for a published name: %v", err)
	}
}
