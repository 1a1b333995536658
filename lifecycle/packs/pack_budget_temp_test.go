package packs

import (
	"os"
	"testing"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/skillgit/skillgit/internal/interrupt"
	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// TestPackfileWriterTempRemoved keeps a fetched pack file in a temporary file, and finds it
// removed when the process stops (interrupt.Cleanup) part way and when the pack is refused.
func TestPackfileWriterTempRemoved(t *testing.T) {
	tmp, repo := t.TempDir(), t.TempDir()
	t.Setenv("TMPDIR", tmp)
	s := &budgetStorer{Storer: filesystem.NewStorage(osfs.New(repo), cache.NewObjectLRUDefault()), budget: 8}

	w, err := s.PackfileWriter()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("PACK")); err != nil {
		t.Fatal(err)
	}
	interrupt.Cleanup()
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("%d files left after interrupt.Cleanup: the pack file was not registered", len(entries))
	}
	_ = w.Close()

	w, err = s.PackfileWriter()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(make([]byte, 64)); err == nil {
		t.Fatal("a pack file over the budget was taken")
	}
	if err := w.Close(); err == nil {
		t.Fatal("closing a refused pack file stored it")
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("%d files left after a refused pack", len(entries))
	}
}

// TestFetchedPackRemoved checks that the repository a pack is fetched into is removed once
// an update and a preview are done with it, and once a fetch fails.
func TestFetchedPackRemoved(t *testing.T) {
	testenv.Hermetic(t, nil)
	base, tmp := t.TempDir(), t.TempDir()
	dir := lifecycletest.NewRepo(t)
	src := packSource(t, base, "demo", map[string]string{"skills/tidy/SKILL.md": testenv.SkillMD("tidy", cleanLine)})
	if _, err := Add(lifecycletest.Open(t, dir), policy.Pack{Name: "demo", URL: "file://" + src}, lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp)
	ups, err := updateT(lifecycletest.Open(t, dir), "demo", UpdateOptions{ActOptions: lifecycletest.Agent})
	if err != nil {
		t.Fatal(err)
	}
	if len(ups) != 1 || len(ups[0].Candidates) != 1 {
		t.Fatalf("update proposed %+v; want one candidate", ups)
	}
	leftIn(t, tmp, "an update")
	if _, err := PreviewSource(PreviewOptions{Pack: policy.Pack{URL: "file://" + src}}); err != nil {
		t.Fatal(err)
	}
	leftIn(t, tmp, "a preview")
	if _, err := PreviewSource(PreviewOptions{Pack: policy.Pack{URL: "file://" + src, Ref: "no-such-branch"}}); err == nil {
		t.Fatal("a preview of a missing branch worked")
	}
	leftIn(t, tmp, "a failed preview")
}

// leftIn fails when anything is left in the temporary folder tmp after what.
func leftIn(t *testing.T, tmp, what string) {
	t.Helper()
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("%d temporary files or folders left after %s, the first %s", len(entries), what, entries[0].Name())
	}
}
