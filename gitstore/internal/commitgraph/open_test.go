package commitgraph

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenNoGraph: a repository without a graph gives ErrNoGraph, not a
// corruption error.
func TestOpenNoGraph(t *testing.T) {
	g, err := Open(filepath.Join(fixture(t, "base"), ".git", "objects"))
	if !errors.Is(err, ErrNoGraph) || g != nil {
		t.Fatalf("Open without graph: %v, %v", g, err)
	}
	if errors.Is(err, ErrCorrupt) {
		t.Fatal("no graph reported as corrupt")
	}
}

// graphBytes reads the single graph file of fixture kind.
func graphBytes(t testing.TB, kind string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixture(t, kind), ".git", "objects", "info", "commit-graph"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// openBytes writes data as a graph file in a fresh objects folder and opens it.
func openBytes(t testing.TB, data []byte) (*Graph, error) {
	t.Helper()
	objects := filepath.Join(t.TempDir(), "objects")
	if err := os.MkdirAll(filepath.Join(objects, "info"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(objects, "info", "commit-graph"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return Open(objects)
}

// TestOpenRejectsDamage damages a real graph file in targeted ways; each
// must give the expected error kind naming the file.
func TestOpenRejectsDamage(t *testing.T) {
	good := graphBytes(t, "paths")
	set := func(at int, b ...byte) func([]byte) []byte {
		return func(d []byte) []byte { copy(d[at:], b); return d }
	}
	cases := []struct {
		name   string
		damage func([]byte) []byte
		want   error
	}{
		{"empty", func(d []byte) []byte { return d[:0] }, ErrCorrupt},
		{"truncated table", func(d []byte) []byte { return d[:40] }, ErrCorrupt},
		{"truncated chunks", func(d []byte) []byte { return d[:len(d)/2] }, ErrCorrupt},
		{"signature", set(0, 'X'), ErrCorrupt},
		{"version", set(4, 2), ErrUnsupported},
		{"sha256", set(5, 2), ErrUnsupported},
		{"chunk count", set(6, 200), ErrCorrupt},
		{"declares a base", set(7, 1), ErrCorrupt},
		{"offset past end", set(headerSize+4, 0xff), ErrCorrupt},
		{"offset into table", set(headerSize+4, 0, 0, 0, 0, 0, 0, 0, 1), ErrCorrupt},
		{"no terminator", func(d []byte) []byte { d[6]--; return d }, ErrCorrupt},
		{"duplicate chunk", func(d []byte) []byte {
			copy(d[headerSize+chunkEntry:], d[headerSize:headerSize+4])
			return d
		}, ErrCorrupt},
		{"fanout decreasing", func(d []byte) []byte {
			chunks, _ := readChunks("", d, int(d[6]))
			binary.BigEndian.PutUint32(chunks[chunkOIDF][10*4:], 0xffffff)
			return d
		}, ErrCorrupt},
	}
	for _, c := range cases {
		data := c.damage(append([]byte{}, good...))
		g, err := openBytes(t, data)
		if !errors.Is(err, c.want) || g != nil {
			t.Errorf("%s: Open = %v, %v; want %v", c.name, g, err, c.want)
			continue
		}
		if !strings.Contains(err.Error(), "commit-graph") {
			t.Errorf("%s: error %q does not name the file", c.name, err)
		}
	}
}

// TestDamagedRecords: positions and EDGE runs that point outside the
// graph give errors from Commit, Parents and walks, not panics.
func TestDamagedRecords(t *testing.T) {
	good := graphBytes(t, "paths")
	chunks, _ := readChunks("", good, int(good[6]))
	cdatAt := offsetIn(good, chunks[chunkCDAT])
	data := append([]byte{}, good...)
	binary.BigEndian.PutUint32(data[cdatAt+hashSize:], 0x6fffffff)             // commit 0: bad first parent
	binary.BigEndian.PutUint32(data[cdatAt+cdatEntry+hashSize+4:], 0x80ffffff) // commit 1: EDGE index out of range
	g, err := openBytes(t, data)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for pos := uint32(0); pos < 2; pos++ {
		if _, err := g.Commit(pos); !errors.Is(err, ErrCorrupt) {
			t.Errorf("Commit(%d) = %v, want ErrCorrupt", pos, err)
		}
	}
	if _, _, err := g.FirstParent(0); !errors.Is(err, ErrCorrupt) {
		t.Errorf("FirstParent: %v", err)
	}
	if _, err := g.Commit(g.Len()); err == nil {
		t.Error("Commit past the end succeeded")
	}
	if id := g.ID(g.Len()); id != ([20]byte{}) {
		t.Error("ID past the end is not zero")
	}
	if err := g.Verify(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Verify after damage: %v", err)
	}
}

// offsetIn returns where sub starts inside data (sub is a subslice).
func offsetIn(data, sub []byte) int {
	for i := 0; i+len(sub) <= len(data); i++ {
		if &data[i] == &sub[0] {
			return i
		}
	}
	return -1
}

// TestVerify passes on git's files and fails on a flipped byte.
func TestVerify(t *testing.T) {
	for _, kind := range []string{"plain", "paths", "split"} {
		if err := openFixture(t, kind).Verify(); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
	}
	data := graphBytes(t, "plain")
	data[len(data)-hashSize-1] ^= 1
	g, err := openBytes(t, data)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if err := g.Verify(); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Verify of flipped byte: %v", err)
	}
}

// TestSplitChainDamage: a chain naming a missing file, a file whose
// checksum is not its name, or layers in the wrong order is an error.
func TestSplitChainDamage(t *testing.T) {
	src := fixture(t, "split")
	chainOf := func(dir string) string {
		return filepath.Join(dir, ".git", "objects", "info", "commit-graphs", "commit-graph-chain")
	}
	data, err := os.ReadFile(chainOf(src))
	if err != nil {
		t.Fatal(err)
	}
	names := strings.Fields(string(data))
	cases := map[string]string{
		"missing layer": names[0] + "\n" + strings.Repeat("ab", 20) + "\n",
		"wrong order":   names[1] + "\n" + names[0] + "\n" + names[2] + "\n",
		"not hex":       "zz\n",
		"empty":         "",
	}
	for name, chain := range cases {
		dir := filepath.Join(t.TempDir(), "r")
		copyRepo(t, src, dir)
		if err := os.WriteFile(chainOf(dir), []byte(chain), 0o644); err != nil {
			t.Fatal(err)
		}
		g, err := Open(filepath.Join(dir, ".git", "objects"))
		if err == nil || errors.Is(err, ErrNoGraph) {
			t.Errorf("%s: Open = %v, %v", name, g, err)
		}
	}
	dir := filepath.Join(t.TempDir(), "r")
	copyRepo(t, src, dir)
	layer := filepath.Join(dir, ".git", "objects", "info", "commit-graphs", "graph-"+names[1]+".graph")
	b, _ := os.ReadFile(layer)
	b[len(b)-1] ^= 1
	if err := os.WriteFile(layer, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(filepath.Join(dir, ".git", "objects")); !errors.Is(err, ErrCorrupt) {
		t.Errorf("renamed layer: %v", err)
	}
}
