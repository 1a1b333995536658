package odb

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// smallPack makes a repository of a few dozen objects packed with
// deltas, by offset or by name, and returns its idx and pack files.
func smallPack(tb testing.TB, refDeltas bool) (idxFile, packFile string) {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "small")
	git(tb, tb.TempDir(), "init", "-q", "-b", "main", dir)
	fastImport(tb, dir, history(6, 3, 3, false))
	git(tb, dir, "-c", "repack.useDeltaBaseOffset="+boolString(!refDeltas), "repack", "-adf", "-q", "--depth=20")
	idxs := packFiles(tb, dir)
	if len(idxs) != 1 {
		tb.Fatalf("small repository has %d packs, want 1", len(idxs))
	}
	return idxs[0], strings.TrimSuffix(idxs[0], ".idx") + ".pack"
}

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// readFile reads name.
func readFile(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// missingDir is a folder that does not exist: a pack held in memory
// has no rev file, no loose objects and no pack folder.
var missingDir = filepath.Join(os.TempDir(), fmt.Sprintf("odb-missing-%d", os.Getpid()))

// memPack returns a DB over a pack held in memory, with no loose
// objects, or an error when the idx or pack headers are refused.
func memPack(idxBytes, packBytes []byte) (*DB, *pack, error) {
	x, err := parseIdx("mem.idx", idxBytes)
	if err != nil {
		return nil, nil, err
	}
	g := &region{b: packBytes, size: int64(len(packBytes))}
	if err := checkPackHeader("mem.pack", g, x); err != nil {
		return nil, nil, err
	}
	p := &pack{file: "mem.pack", base: filepath.Join(missingDir, "mem"), idx: x, idxMap: &region{}, data: g, size: g.size}
	d := &objDir{path: missingDir, byBase: map[string]*pack{p.base: p}}
	d.packs.Store(&[]*pack{p})
	return &DB{dirs: []*objDir{d}, cache: newBaseCache(1 << 20)}, p, nil
}
