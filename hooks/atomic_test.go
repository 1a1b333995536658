package hooks

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillgit/skillgit/internal/interrupt"
)

// TestWriteAtomicStoppedLeavesNoTemp stops the process, as a signal does, just before the
// hook's temporary file is renamed into place: interrupt removes it, the write fails, and
// neither a hook nor a temporary file is left.
func TestWriteAtomicStoppedLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	hook := filepath.Join(dir, "pre-commit")
	err := writeAtomic(hook, []byte("#!/bin/sh\n"), func() error {
		interrupt.Cleanup()
		return nil
	})
	if err == nil {
		t.Fatal("writing a hook whose temporary file vanished succeeded")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%d entries left in the hooks folder, want none", len(entries))
	}
}

// TestWriteAtomicErrorLeavesNoTemp fails the write just before the rename and finds the
// temporary file removed.
func TestWriteAtomicErrorLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	err := writeAtomic(filepath.Join(dir, "pre-push"), []byte("#!/bin/sh\n"), func() error {
		return os.ErrPermission
	})
	if err == nil {
		t.Fatal("a failing step before the rename did not fail the write")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%d entries left in the hooks folder, want none", len(entries))
	}
}
