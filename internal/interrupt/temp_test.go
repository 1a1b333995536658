package interrupt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCreateTempIsRegisteredFromTheStart checks that a file CreateTemp makes, and a folder
// MkdirTemp makes, are registered by the time they exist: Cleanup removes them until they
// are untracked, and the names follow the pattern.
func TestCreateTempIsRegisteredFromTheStart(t *testing.T) {
	reset(t)
	dir := t.TempDir()
	f, untrack, err := CreateTemp(dir, "tmp_obj_")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if !strings.HasPrefix(filepath.Base(f.Name()), "tmp_obj_") || filepath.Dir(f.Name()) != dir {
		t.Errorf("CreateTemp name %s", f.Name())
	}
	d, untrackDir, err := MkdirTemp(dir, ".new-*-x")
	if err != nil {
		t.Fatal(err)
	}
	if base := filepath.Base(d); !strings.HasPrefix(base, ".new-") || !strings.HasSuffix(base, "-x") {
		t.Errorf("MkdirTemp name %s", d)
	}
	if err := os.WriteFile(filepath.Join(d, "inside"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	Cleanup()
	if exists(f.Name()) || exists(d) {
		t.Fatalf("Cleanup left %s or %s", f.Name(), d)
	}
	untrack()
	untrackDir()

	kept, untrack, err := CreateTemp(dir, "keep-*.pack")
	if err != nil {
		t.Fatal(err)
	}
	kept.Close()
	untrack()
	Cleanup()
	if !exists(kept.Name()) {
		t.Errorf("Cleanup removed %s after it was untracked", kept.Name())
	}
	if _, _, err := CreateTemp(dir, "a/b*"); err == nil {
		t.Error("a pattern with a path separator was taken")
	}
}
