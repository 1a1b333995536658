package packs

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// lowPackBudget lowers the default pack budget to n bytes for one test.
func lowPackBudget(t *testing.T, n int64) {
	t.Helper()
	old := defaultPackMaxBytes
	defaultPackMaxBytes = n
	t.Cleanup(func() { defaultPackMaxBytes = old })
}

// zeroFile writes a file of size zero bytes without holding them in memory.
func zeroFile(t *testing.T, p string, size int64) {
	t.Helper()
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestPackRefusesContentOverBudget serves, over git://, a pack whose skill holds 64 MiB of
// zeros (a pack file of well under 1 MiB) against a budget of 8 MiB: the update is refused
// before the content is inflated into memory, naming the pack, the limit and the setting that
// raises it, and writes nothing.
func TestPackRefusesContentOverBudget(t *testing.T) {
	testenv.Hermetic(t, nil)
	lowPackBudget(t, 8<<20)
	base := t.TempDir()
	src := packSource(t, base, "zeros", map[string]string{"skills/big/SKILL.md": testenv.SkillMD("big", cleanLine)})
	zeroFile(t, filepath.Join(src, "skills", "big", "zeros.bin"), 64<<20)
	testenv.CommitAll(t, src, "add 64 MiB of zeros")
	server := gitDaemon(t, base)
	refusedUpdate(t, server+"/zeros", "pack demo", "8 MiB", "max_bytes", policy.ConfigFile)
}

// TestPackRefusesDeltasOverBudget counts the size a delta makes, not the size of the delta:
// two near-identical files of 6 MiB, the second stored as a delta of the first, are 12 MiB.
func TestPackRefusesDeltasOverBudget(t *testing.T) {
	testenv.Hermetic(t, nil)
	lowPackBudget(t, 8<<20)
	base := t.TempDir()
	src := packSource(t, base, "twins", map[string]string{"skills/big/SKILL.md": testenv.SkillMD("big", cleanLine)})
	a := filepath.Join(src, "skills", "big", "a.bin")
	zeroFile(t, a, 6<<20)
	b := filepath.Join(src, "skills", "big", "b.bin")
	zeroFile(t, b, 6<<20)
	f, err := os.OpenFile(b, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("twin\n")
	f.Close()
	testenv.CommitAll(t, src, "add twins")
	refusedUpdate(t, "file://"+src, "pack demo", "8 MiB", "max_bytes")
}

// TestDeltaTargetSize reads a delta's result size from its header.
func TestDeltaTargetSize(t *testing.T) {
	var d deltaHead
	// base size 5, result size 300 (0xac 0x02), then the start of an instruction.
	d.Write([]byte{0x05, 0xac, 0x02, 0x90})
	if n, err := d.targetSize(); err != nil || n != 300 {
		t.Fatalf("targetSize = %d, %v; want 300", n, err)
	}
	var bad deltaHead
	bad.Write([]byte{0x80})
	if _, err := bad.targetSize(); err == nil {
		t.Fatal("a cut header was read")
	}
}

// TestPackMaxBytesRaisesBudget lets a pack over the default budget through once its max_bytes
// in .skillgit.yaml holds it.
func TestPackMaxBytesRaisesBudget(t *testing.T) {
	testenv.Hermetic(t, nil)
	lowPackBudget(t, 1<<20)
	base := t.TempDir()
	src := packSource(t, base, "roomy", map[string]string{"skills/big/SKILL.md": testenv.SkillMD("big", cleanLine)})
	zeroFile(t, filepath.Join(src, "skills", "big", "zeros.bin"), 2<<20)
	testenv.CommitAll(t, src, "add 2 MiB of zeros")
	dir := lifecycletest.NewRepo(t)
	if _, err := Add(lifecycletest.Open(t, dir), policy.Pack{Name: "demo", URL: "file://" + src, MaxBytes: 4 << 20}, lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	ups, err := updateT(lifecycletest.Open(t, dir), "demo", UpdateOptions{ActOptions: lifecycletest.Agent})
	if err != nil {
		t.Fatal(err)
	}
	if len(ups) != 1 || ups[0].Fetched == "" {
		t.Fatalf("update: %+v", ups)
	}
}

// TestPackRefusesTooManyObjects refuses a pack of more objects than its budget allows, one for
// each budgetPerObject bytes, however little content they hold: 100 files of a few bytes
// against a budget of 64 KiB, which allows 64 objects.
func TestPackRefusesTooManyObjects(t *testing.T) {
	testenv.Hermetic(t, nil)
	lowPackBudget(t, 64*budgetPerObject)
	base := t.TempDir()
	files := map[string]string{"skills/many/SKILL.md": testenv.SkillMD("many", cleanLine)}
	for i := range 100 {
		files[fmt.Sprintf("skills/many/notes/%03d.md", i)] = fmt.Sprintf("note %d\n", i)
	}
	src := packSource(t, base, "many", files)
	refusedUpdate(t, "file://"+src, "pack demo", "objects", "more than the 64", "max_bytes")
}
