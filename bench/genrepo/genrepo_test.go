package genrepo_test

import (
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/bench/genrepo"
	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/initrepo"
)

// hermetic points git and skillgit at an empty configuration, so the tests see neither the
// user's settings nor each other's.
func hermetic(t *testing.T) {
	t.Helper()
	home := t.TempDir()
	cfg := filepath.Join(home, "gitconfig")
	if err := os.WriteFile(cfg, []byte("[user]\n\tname = Bench\n\temail = bench@example.com\n[gc]\n\tauto = 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"HOME": home, "XDG_CONFIG_HOME": home, "GIT_CONFIG_GLOBAL": cfg, "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C"} {
		t.Setenv(k, v)
	}
}

// generate creates a skillgit repository in a temporary folder and fills it.
func generate(t *testing.T, opts genrepo.Options) (string, *genrepo.Result) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	if _, err := initrepo.Init(initrepo.Options{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	res, err := genrepo.Generate(dir, opts)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	return dir, res
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestGenerate(t *testing.T) {
	hermetic(t)
	tree := filepath.Join(t.TempDir(), "tree")
	dir, res := generate(t, genrepo.Options{Skills: 80, Commits: 150, Seed: 7, TreeDir: tree, Checkout: true})
	t.Run("counts", func(t *testing.T) {
		got := []int{res.Skills, res.Commits}
		if diff := cmp.Diff([]int{80, 150}, got); diff != "" {
			t.Errorf("skills, commits (-want +got):\n%s", diff)
		}
		if all := gitOut(t, dir, "rev-list", "--all", "--count"); all != "151" {
			t.Errorf("git rev-list --all --count = %s, want 151 (150 generated + init)", all)
		}
	})
	t.Run("git accepts it", func(t *testing.T) {
		gitOut(t, dir, "fsck", "--strict", "--no-progress")
		if st := gitOut(t, dir, "status", "--porcelain"); st != "" {
			t.Errorf("working tree differs from main after checkout:\n%s", st)
		}
	})
	t.Run("packed", func(t *testing.T) {
		counts := gitOut(t, dir, "count-objects", "-v")
		if !strings.Contains(counts, "\ncount: 0\n") && !strings.HasPrefix(counts, "count: 0\n") {
			t.Errorf("loose objects left after gc:\n%s", counts)
		}
	})
	t.Run("skills strictly valid", func(t *testing.T) { checkStrict(t, dir, res) })
	t.Run("plain copy matches", func(t *testing.T) { checkCopy(t, dir, tree, res) })
	t.Run("lifecycle trailers", func(t *testing.T) { checkTrailers(t, dir, res) })
}

func checkStrict(t *testing.T, dir string, res *genrepo.Result) {
	g, err := gitstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	found, err := catalog.Discover(g.Objects().TreeFS(res.SkillsTree), ".", catalog.Options{Mode: catalog.Strict})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]catalog.Problem(nil), found.Problems); diff != "" {
		t.Errorf("strict problems (-want +got):\n%s", diff)
	}
	nested, scripts := 0, 0
	for _, s := range found.Skills {
		if path.Base(s.Dir) != s.Dir {
			nested++
		}
		if _, err := fs.Stat(g.Objects().TreeFS(res.SkillsTree), s.Dir+"/scripts"); err == nil {
			scripts++
		}
	}
	got := []int{len(found.Skills), nested, scripts}
	if diff := cmp.Diff([]int{res.Skills, res.Nested, res.Scripts}, got); diff != "" {
		t.Errorf("skills, nested, with scripts (-want +got):\n%s", diff)
	}
}

// checkCopy compares every skill folder of the plain copy with the one on main, by tree id.
func checkCopy(t *testing.T, dir, tree string, res *genrepo.Result) {
	g, err := gitstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	found, err := catalog.Discover(os.DirFS(tree), ".", catalog.Options{Mode: catalog.Strict})
	if err != nil {
		t.Fatal(err)
	}
	if len(found.Skills) != res.Skills || len(found.Problems) != 0 {
		t.Fatalf("copy holds %d skills and %d problems, want %d and none", len(found.Skills), len(found.Problems), res.Skills)
	}
	mem := gitstore.OpenMemory()
	for _, s := range found.Skills {
		want, ok, err := g.Objects().EntryAt(res.SkillsTree, s.Dir)
		if err != nil || !ok {
			t.Fatalf("%s: not on main (%v)", s.Dir, err)
		}
		got, err := mem.Writes().WriteDir(os.DirFS(tree), s.Dir)
		if err != nil {
			t.Fatal(err)
		}
		if got != want.Hash {
			t.Errorf("%s: copy is tree %s, main has %s", s.Dir, got, want.Hash)
		}
	}
}

// checkTrailers walks main's first parents: every publish is a merge of a candidate, and every
// commit but the plain edits and the init carries lifecycle trailers that git reads too.
func checkTrailers(t *testing.T, dir string, res *genrepo.Result) {
	g, err := gitstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	actions := map[string]int{}
	err = g.History().WalkFirstParent(res.Tip, func(h gitstore.Hash, c *object.Commit) error {
		action := gitstore.TrailerValue(gitstore.ParseTrailers(c.Message), "Skillgit-Action")
		actions[action]++
		merge, imported := len(c.ParentHashes) == 2, strings.HasPrefix(c.Message, "publish: import")
		if merge != (action == "publish") && !imported {
			t.Errorf("%s: action %q with %d parents", h, action, len(c.ParentHashes))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"init", "publish", "rollback", ""} {
		if actions[a] == 0 {
			t.Errorf("no first-parent commit with action %q; got %v", a, actions)
		}
	}
	parsed := gitOut(t, dir, "log", "-1", "--format=%(trailers:key=Skillgit-Action,valueonly)", "--merges", "main")
	if parsed != "publish" {
		t.Errorf("git reads the last merge's action as %q, want publish", parsed)
	}
}

func TestGenerateDeterministic(t *testing.T) {
	hermetic(t)
	opts := genrepo.Options{Skills: 40, Commits: 60, Seed: 3}
	_, a := generate(t, opts)
	_, b := generate(t, opts)
	if a.SkillsTree != b.SkillsTree || a.Open != b.Open || a.Archived != b.Archived {
		t.Errorf("same seed gave %+v and %+v", a, b)
	}
	opts.Seed = 4
	_, c := generate(t, opts)
	if c.SkillsTree == a.SkillsTree {
		t.Errorf("seeds 3 and 4 gave the same skills tree %s", c.SkillsTree)
	}
}

func TestGenerateRefuses(t *testing.T) {
	hermetic(t)
	notEmpty := t.TempDir()
	if err := os.WriteFile(filepath.Join(notEmpty, "keep"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	plain := t.TempDir()
	tests := []struct {
		name string
		dir  func(t *testing.T) string
		opts genrepo.Options
		want string
	}{
		{"no skills", initialized, genrepo.Options{Skills: 0, Commits: 5}, "at least 1"},
		{"no commits", initialized, genrepo.Options{Skills: 5, Commits: 0}, "at least 1"},
		{"not a repository", func(*testing.T) string { return plain }, genrepo.Options{Skills: 5, Commits: 5}, "not a git repository"},
		{"tree folder in use", initialized, genrepo.Options{Skills: 5, Commits: 5, TreeDir: notEmpty}, "not empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := genrepo.Generate(tt.dir(t), tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Generate error = %v, want one containing %q", err, tt.want)
			}
		})
	}
	if entries, _ := os.ReadDir(notEmpty); len(entries) != 1 {
		t.Errorf("the non-empty tree folder was written to: %d entries", len(entries))
	}
}

func initialized(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), "repo")
	if _, err := initrepo.Init(initrepo.Options{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	return dir
}
