package packs

import (
	"os"
	"testing"

	"github.com/go-git/go-git/v5/storage/memory"

	"github.com/skillgit/skillgit/internal/interrupt"
)

// TestPackfileWriterTempRemoved keeps a fetched pack file in a temporary file, and finds it
// removed when the process stops (interrupt.Cleanup) part way and when the pack is refused.
func TestPackfileWriterTempRemoved(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	s := &budgetStorer{Storer: memory.NewStorage(), budget: 8}

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
