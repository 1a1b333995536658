package packs

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/skillgit/skillgit/internal/procowner"
)

// goneOwner is an owner record of a process that has exited.
func goneOwner(t *testing.T) []byte {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	o := procowner.Self()
	o.PID, o.Start = cmd.Process.Pid, 0
	return o.Marshal()
}

// TestSweepScratch checks that a fetch folder left by a killed process is removed, and that
// folders of a live process, folders without a record, links and records that are links are
// left alone.
func TestSweepScratch(t *testing.T) {
	tmp, elsewhere := t.TempDir(), t.TempDir()
	folder := func(name string, record []byte) string {
		dir := filepath.Join(tmp, name)
		if err := os.MkdirAll(filepath.Join(dir, "objects"), 0o700); err != nil {
			t.Fatal(err)
		}
		if record != nil {
			if err := os.WriteFile(filepath.Join(dir, scratchOwner), record, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	gone := folder("skillgit-pack-gone.git", goneOwner(t))
	live := folder("skillgit-pack-live.git", procowner.Self().Marshal())
	bare := folder("skillgit-pack-bare.git", nil)
	other := folder("other-gone.git", goneOwner(t))
	target := filepath.Join(elsewhere, "target")
	if err := os.MkdirAll(target, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(target, scratchOwner), goneOwner(t), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(tmp, "skillgit-pack-link.git")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	linked := folder("skillgit-pack-linked.git", nil)
	if err := os.Symlink(filepath.Join(target, scratchOwner), filepath.Join(linked, scratchOwner)); err != nil {
		t.Fatal(err)
	}

	sweepScratch(tmp)

	if _, err := os.Lstat(gone); err == nil {
		t.Errorf("the folder of a gone process is still there")
	}
	for _, kept := range []string{live, bare, other, link, linked, target} {
		if _, err := os.Lstat(kept); err != nil {
			t.Errorf("%s was removed: %v", kept, err)
		}
	}
}
