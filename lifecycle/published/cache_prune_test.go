package published

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestCatalogCachePrune checks that the cache keeps the listings written last, and the one
// just written however old its time, and leaves every other file alone.
func TestCatalogCachePrune(t *testing.T) {
	dir := t.TempDir()
	start := time.Now().Add(-time.Hour)
	var names []string
	for i := range 12 {
		names = append(names, fmt.Sprintf("catalog-v%d-%040x.bin", 5+i/6, i))
	}
	others := []string{"catalog-v6-latest", "ledger-v2-816f2b87.txt", "catalog-v6-note.txt"}
	for i, name := range append(slices.Clone(names), others...) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		when := start.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(p, when, when); err != nil {
			t.Fatal(err)
		}
	}
	catalogCache{dir: dir}.prune(names[0]) // the oldest, as if just written
	var left []string
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		left = append(left, e.Name())
	}
	want := append(append([]string{names[0]}, names[12-keepCatalogs+1:]...), others...)
	slices.Sort(want)
	if !slices.Equal(left, want) {
		t.Fatalf("left %q;\nwant %q", left, want)
	}
}
