package targetdir

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestDryRunRecordsWhatASyncDoes checks that a dry run goes through the steps of the sync it
// stands for: what it records moving into place is what that sync then leaves in the folder,
// and a sync that writes records nothing.
func TestDryRunRecordsWhatASyncDoes(t *testing.T) {
	src, target := t.TempDir(), filepath.Join(t.TempDir(), "skills")
	skills := writeSource(t, src, "v1", "alpha", "beta")
	dry, err := Plan(os.DirFS(src), skills, target, Options{Disk: DryRun})
	if err != nil {
		t.Fatal(err)
	}
	defer dry.Close()
	if err := dry.Apply(); err != nil {
		t.Fatal(err)
	}
	var placed []string
	for _, c := range dry.Recorded() {
		if c.Op == "rename" {
			placed = append(placed, c.To)
		}
	}
	slices.Sort(placed)
	placed = slices.Compact(placed)

	real, err := Plan(os.DirFS(src), skills, target, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := real.Apply(); err != nil {
		t.Fatal(err)
	}
	if err := real.Close(); err != nil {
		t.Fatal(err)
	}
	if got := real.Recorded(); got != nil {
		t.Errorf("a sync that writes recorded %v", got)
	}
	entries, err := os.ReadDir(target)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if !slices.Equal(placed, left) {
		t.Errorf("the dry run recorded placing %v; the sync left %v", placed, left)
	}
}
