package sshsig

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillgit/skillgit/internal/interrupt"
)

// TestLiteralKeyFileRemoved writes a literal signing key to a temporary folder, and finds it
// removed by its cleanup and, when the process stops before that, by interrupt.Cleanup.
func TestLiteralKeyFileRemoved(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	for _, stop := range []bool{false, true} {
		path, cleanup, err := keyFileOf(literalPrefix + "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA test")
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Dir(filepath.Dir(path)) != tmp {
			t.Fatalf("key file %s; want one in a folder of %s", path, tmp)
		}
		if stop {
			interrupt.Cleanup()
		} else {
			cleanup()
		}
		if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
			t.Errorf("stopped %v: %d entries left in the temporary folder", stop, len(entries))
		}
		cleanup()
	}
}
