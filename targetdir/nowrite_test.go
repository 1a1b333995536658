package targetdir

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillgit/skillgit/internal/filenames"
)

// TestSyncUnchangedWritesNothing checks that a sync with nothing to change leaves the
// manifest file as it was, the same file, not a rewrite, while one that changes a skill
// writes it.
func TestSyncUnchangedWritesNothing(t *testing.T) {
	src, target := t.TempDir(), filepath.Join(t.TempDir(), "skills")
	skills := writeSource(t, src, "v1", "alpha", "beta")
	syncOnce(t, src, skills, target, Options{})
	man := filepath.Join(target, filenames.Manifest)
	before, err := os.Stat(man)
	if err != nil {
		t.Fatal(err)
	}
	past := before.ModTime().Add(-time.Hour)
	if err := os.Chtimes(man, past, past); err != nil {
		t.Fatal(err)
	}
	syncOnce(t, src, skills, target, Options{})
	after, err := os.Stat(man)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) || !after.ModTime().Equal(past) {
		t.Errorf("a sync that changed nothing rewrote %s", man)
	}
	src2 := t.TempDir()
	syncOnce(t, src2, writeSource(t, src2, "v2", "alpha", "beta"), target, Options{})
	if again, err := os.Stat(man); err != nil || os.SameFile(after, again) {
		t.Errorf("a sync that updated skills left the manifest file as it was: %v", err)
	}
}
