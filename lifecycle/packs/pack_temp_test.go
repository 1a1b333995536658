package packs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// TestPackFetchedIntoTemporaryRepository checks that a pack is fetched into a repository of
// its own under the temporary folder, which holds the pack file rather than loose objects,
// and that an update, a refused update and a preview each remove it.
func TestPackFetchedIntoTemporaryRepository(t *testing.T) {
	testenv.Hermetic(t, nil)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	base := t.TempDir()
	src := packSource(t, base, "two", map[string]string{
		"skills/alpha/SKILL.md": testenv.SkillMD("alpha", cleanLine),
		"skills/beta/SKILL.md":  testenv.SkillMD("beta", cleanLine),
	})
	fp, err := fetchPack(t.Context(), policy.Pack{Name: "two", URL: "file://" + src}, nil)
	if err != nil {
		t.Fatal(err)
	}
	packs, _ := filepath.Glob(filepath.Join(fp.dir, "objects", "pack", "pack-*.pack"))
	loose, _ := filepath.Glob(filepath.Join(fp.dir, "objects", "??", "*"))
	if filepath.Dir(fp.dir) != tmp || len(packs) != 1 || len(loose) != 0 {
		t.Fatalf("fetched into %s: %d pack files and %d loose objects; want one pack file under %s", fp.dir, len(packs), len(loose), tmp)
	}
	fp.close()
	emptyTemp(t, tmp, "after close")

	dir := lifecycletest.NewRepo(t)
	if _, err := Add(lifecycletest.Open(t, dir), policy.Pack{Name: "two", URL: "file://" + src}, lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	ups, err := updateT(lifecycletest.Open(t, dir), "two", UpdateOptions{ActOptions: lifecycletest.Agent})
	if err != nil || len(ups) != 1 || len(ups[0].Candidates) != 2 {
		t.Fatalf("update: %+v, %v; want two candidates", ups, err)
	}
	emptyTemp(t, tmp, "after an update")

	if _, err := PreviewSource(PreviewOptions{Pack: policy.Pack{URL: "file://" + src}, Dir: base}); err != nil {
		t.Fatal(err)
	}
	emptyTemp(t, tmp, "after a preview")

	lowPackBudget(t, 64)
	refusedUpdate(t, "file://"+src, "pack demo", "max_bytes")
	emptyTemp(t, tmp, "after a refused update")
}

// emptyTemp fails when the temporary folder holds anything.
func emptyTemp(t *testing.T, tmp, when string) {
	t.Helper()
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Fatalf("%s: %d entries left in the temporary folder, the first %s", when, len(entries), entries[0].Name())
	}
}
