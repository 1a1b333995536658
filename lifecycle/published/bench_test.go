package published_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/skillgit/skillgit/bench/genrepo"
	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/initrepo"
)

// benchRepo returns the repository named by SKILLGIT_BENCH_REPO, or generates one of 10,000
// skills and 3,000 commits, as the performance goals size it.
func benchRepo(b *testing.B) string {
	return lifecycletest.Generated(b, "SKILLGIT_BENCH_REPO", genrepo.Options{Skills: 10_000, Commits: 3_000, Seed: 1})
}

// gitDir is the git folder of the repository in dir.
func gitDir(tb testing.TB, dir string) string {
	return lifecycletest.Open(tb, dir).Git().CommonDir()
}

// BenchmarkPublished lists the publish branch of a packed repository of 10,000 skills and
// 3,000 commits: Cold without the catalog cache (it is removed before every run), Warm with
// it. Generating the repository takes about a minute; set SKILLGIT_BENCH_REPO to a repository
// made by `go run ./bench/gen` to reuse one.
func BenchmarkPublished(b *testing.B) {
	dir := benchRepo(b)
	b.Run("Cold", func(b *testing.B) { benchPublished(b, dir, true) })
	b.Run("Warm", func(b *testing.B) { benchPublished(b, dir, false) })
}

func benchPublished(b *testing.B, dir string, cold bool) {
	cache := filepath.Join(gitDir(b, dir), "skillgit", "cache")
	listOnce(b, dir)
	b.ReportAllocs()
	for b.Loop() {
		if cold {
			b.StopTimer()
			if err := os.RemoveAll(cache); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		listOnce(b, dir)
	}
}

// listOnce opens the repository and lists it, as `skillgit list` does.
func listOnce(b *testing.B, dir string) int {
	r, res := openPublished(b, dir)
	defer r.Close()
	if len(res.Skills) == 0 || len(res.Problems) != 0 {
		b.Fatalf("listed %d skills with %d problems; want skills and no problems", len(res.Skills), len(res.Problems))
	}
	return len(res.Skills)
}

// TestPublishedCache checks on a generated repository, with skills that load with warnings
// and skills that do not load, that a listing served from the cache equals the one computed
// without it, and that a damaged cache entry is recomputed.
func TestPublishedCache(t *testing.T) {
	home := t.TempDir()
	for k, v := range map[string]string{"HOME": home, "XDG_CONFIG_HOME": home, "GIT_CONFIG_GLOBAL": os.DevNull, "GIT_CONFIG_NOSYSTEM": "1"} {
		t.Setenv(k, v)
	}
	dir := filepath.Join(t.TempDir(), "repo")
	if _, err := initrepo.Init(initrepo.Options{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if _, err := genrepo.Generate(dir, genrepo.Options{Skills: 120, Commits: 40, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	addFlawedSkills(t, dir)
	cache := filepath.Join(gitDir(t, dir), "skillgit", "cache")
	cold := listMain(t, dir)
	if len(cold.Skills) != 121 || len(cold.Problems) != 2 {
		t.Fatalf("cold listing: %d skills, problems %v; want 121 and two warnings", len(cold.Skills), cold.Problems)
	}
	entries, err := filepath.Glob(filepath.Join(cache, "catalog-*.bin"))
	if err != nil || len(entries) != 1 {
		t.Fatalf("cache folder after a cold listing: %v, %v; want one entry", entries, err)
	}
	opts := []cmp.Option{cmpopts.IgnoreUnexported(catalog.Skill{}), cmpopts.EquateEmpty()}
	t.Run("warm equals cold", func(t *testing.T) {
		if diff := cmp.Diff(cold, listMain(t, dir), opts...); diff != "" {
			t.Errorf("warm listing (-cold +warm):\n%s", diff)
		}
	})
	t.Run("damaged entry is a miss", func(t *testing.T) {
		if err := os.WriteFile(entries[0], []byte("not a catalog"), 0o600); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(cold, listMain(t, dir), opts...); diff != "" {
			t.Errorf("listing over a damaged cache (-cold +got):\n%s", diff)
		}
		if diff := cmp.Diff(cold, listMain(t, dir), opts...); diff != "" {
			t.Errorf("listing after the entry was rewritten (-cold +got):\n%s", diff)
		}
	})
}

// addFlawedSkills publishes one skill whose name differs from its folder (a warning; it
// loads) and one without a description (a warning; it is skipped).
func addFlawedSkills(t *testing.T, dir string) {
	t.Helper()
	g, err := gitstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	tip, err := g.Refs().Get("refs/heads/main")
	if err != nil {
		t.Fatal(err)
	}
	c, err := g.Objects().Commit(tip)
	if err != nil {
		t.Fatal(err)
	}
	root := c.TreeHash
	for folder, md := range map[string]string{
		"skills/misnamed":       "---\nname: other-name\ndescription: Loads with a warning.\n---\nBody.\n",
		"skills/ops/no-summary": "---\nname: no-summary\n---\nBody.\n",
	} {
		root = replaceFile(t, g, root, folder+"/SKILL.md", md)
	}
	sig := object.Signature{Name: "Bench", Email: "bench@example.com"}
	h, err := g.Writes().WriteCommit(gitstore.CommitSpec{Tree: root, Parents: []gitstore.Hash{tip}, Author: sig, Committer: sig, Message: "Add flawed skills\n"})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Updates().Update("refs/heads/main", h, tip, "test: flawed skills"); err != nil {
		t.Fatal(err)
	}
}

func replaceFile(t *testing.T, g *gitstore.Repo, root gitstore.Hash, p, content string) gitstore.Hash {
	t.Helper()
	blob, err := g.Writes().WriteBlob([]byte(content))
	if err != nil {
		t.Fatal(err)
	}
	root, err = g.Writes().ReplacePath(root, p, &gitstore.TreeEntry{Mode: filemode.Regular, Hash: blob})
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func listMain(t *testing.T, dir string) *catalog.Result {
	t.Helper()
	r, res := openPublished(t, dir)
	r.Close()
	return res
}

// openPublished opens the repository in dir and lists what main publishes; the caller closes
// the repository.
func openPublished(tb testing.TB, dir string) (*lifecycle.Repo, *catalog.Result) {
	tb.Helper()
	r, err := lifecycle.Open(dir)
	if err != nil {
		tb.Fatal(err)
	}
	res, err := r.Published().List()
	if err != nil {
		r.Close()
		tb.Fatal(err)
	}
	return r, res
}
