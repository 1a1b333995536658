package gitstore

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkIndexRewrite reads an index of 11,000 entries under its lock and writes it back,
// as a publish into a checked-out branch does around the entries it changes.
func BenchmarkIndexRewrite(b *testing.B) {
	dir, idx := bigIndexRepo(b)
	r, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	for b.Loop() {
		li, err := r.lockIndex()
		if err != nil {
			b.Fatal(err)
		}
		if err := li.commit(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if err := os.WriteFile(filepath.Join(dir, ".git", "index"), idx, 0o644); err != nil {
		b.Fatal(err)
	}
}
