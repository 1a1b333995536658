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

func TestCreateCommitsWhatWasWritten(t *testing.T) {
	name := filepath.Join(t.TempDir(), "sub", "file")
	f, err := Create(name, Options{Perm: 0o640})
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{"one ", "two ", "three"} {
		if _, err := f.Write([]byte(part)); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(name); !os.IsNotExist(err) {
			t.Fatalf("the target exists before Commit: %v", err)
		}
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(name)
	if err != nil || string(data) != "one two three" {
		t.Errorf("committed file holds %q, %v; want %q", data, err, "one two three")
	}
	if fi, err := os.Stat(name); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("committed file mode %v, %v; want 0640", fi.Mode().Perm(), err)
	}
	if n := len(dirEntries(t, filepath.Dir(name))); n != 1 {
		t.Errorf("%d files beside the target; want only the target", n)
	}
}

func TestAbortLeavesTarget(t *testing.T) {
	name := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(name, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Create(name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("new")); err != nil {
		t.Fatal(err)
	}
	f.Abort()
	if data, err := os.ReadFile(name); err != nil || string(data) != "old" {
		t.Errorf("target after Abort holds %q, %v; want %q", data, err, "old")
	}
	if n := len(dirEntries(t, filepath.Dir(name))); n != 1 {
		t.Errorf("%d files beside the target after Abort; want only the target", n)
	}
}

func dirEntries(t *testing.T, dir string) []os.DirEntry {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}
