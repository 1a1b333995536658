//go:build unix

package catalog

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestLoadFIFO checks that a SKILL.md that is a named pipe is reported
// without being opened, since opening it would block forever.
func TestLoadFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "pipe"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe", "SKILL.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	done := make(chan []Problem, 1)
	go func() {
		_, problems := Load(root.FS(), "pipe", Lenient, true)
		done <- problems
	}()
	select {
	case problems := <-done:
		want := []Problem{problem("pipe/SKILL.md", 0, "file is not a regular file (mode p---------); replace it with a regular file")}
		checkParse(t, nil, problems, nil, want)
	case <-time.After(10 * time.Second):
		t.Fatal("Load blocked on a named pipe")
	}
}
