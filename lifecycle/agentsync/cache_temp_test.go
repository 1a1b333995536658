package agentsync

import (
	"os"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/interrupt"
)

// TestCreateCloneStoppedLeavesNoTemp stops the process, as a signal does, just after the
// temporary folder of a clone is made, and on a clone that fails: neither leaves it behind.
func TestCreateCloneStoppedLeavesNoTemp(t *testing.T) {
	src := t.TempDir()
	gitRun(t, src, "init", "-q", "-b", "trunk")
	gitRun(t, src, "commit", "-q", "--allow-empty", "-m", "one")
	for _, c := range []struct {
		name, url string
		stop      bool
	}{
		{"stopped", "file://" + src, true},
		{"failed", "file://" + t.TempDir() + "/missing", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			var made string
			tempMade = func(path string) {
				made = path
				if !c.stop {
					return
				}
				interrupt.Cleanup()
				if _, err := os.Lstat(path); err == nil {
					t.Errorf("%s outlived interrupt.Cleanup: it was not registered", path)
				}
			}
			defer func() { tempMade = nil }()
			_, err := createClone(root, root+"/clone", c.url, nil)
			if !c.stop && err == nil {
				t.Fatal("cloning a missing repository succeeded")
			}
			if made == "" {
				t.Fatal("no temporary folder was made")
			}
			entries, _ := os.ReadDir(root)
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), ".new-") {
					t.Errorf("temporary folder %s left", e.Name())
				}
			}
		})
	}
}
