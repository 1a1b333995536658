package atomicfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillgit/skillgit/internal/interrupt"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a", "b", "file")
	if err := Write(name, []byte("one"), Options{Perm: 0o644, Sync: true}); err != nil {
		t.Fatal(err)
	}
	if err := Write(name, []byte("two"), Options{Perm: 0o644}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(name)
	if err != nil || string(got) != "two" {
		t.Fatalf("read %q, %v; want two", got, err)
	}
	if st, _ := os.Stat(name); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(name))
	if len(entries) != 1 {
		t.Errorf("%d entries left beside the file, want only the file", len(entries))
	}
}

func TestWriteFailureLeavesTarget(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "file")
	if err := os.WriteFile(name, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A folder in the way of the rename makes it fail.
	target := filepath.Join(dir, "sub")
	if err := os.MkdirAll(filepath.Join(target, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Write(target, []byte("new"), Options{}); err == nil {
		t.Fatal("rename over a non-empty folder succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("%d entries in the folder, want the file and the folder only", len(entries))
	}
}

// TestWriteStoppedLeavesNoTemp stops the process, as a signal does, once the temporary file
// is made: interrupt removes it, and the write fails leaving nothing.
func TestWriteStoppedLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	var made string
	tempMade = func(path string) {
		made = path
		interrupt.Cleanup()
	}
	defer func() { tempMade = nil }()
	if err := Write(filepath.Join(dir, "file"), []byte("new"), Options{Sync: true}); err == nil {
		t.Fatal("a write whose temporary file vanished succeeded")
	}
	if made == "" {
		t.Fatal("no temporary file was made")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%d entries left in the folder, want none", len(entries))
	}
}
