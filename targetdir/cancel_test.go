package targetdir

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSyncStopsWhenCancelled checks that a sync whose context is cancelled writes no further
// skill, says so, leaves the folder consistent, and that the next sync completes it.
func TestSyncStopsWhenCancelled(t *testing.T) {
	src, target := t.TempDir(), filepath.Join(t.TempDir(), "skills")
	skills := writeSource(t, src, "v1", "alpha", "beta", "gamma")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p, err := Plan(os.DirFS(src), skills, target, Options{Context: ctx})
	if err != nil {
		t.Fatal(err)
	}
	err = p.Apply()
	p.Close()
	if err == nil || !strings.Contains(err.Error(), "sync stopped before every skill was written") || !strings.Contains(err.Error(), context.Canceled.Error()) {
		t.Fatalf("Apply with a cancelled context: %v", err)
	}
	for _, name := range []string{"alpha", "beta", "gamma"} {
		if _, err := os.Lstat(filepath.Join(target, name)); err == nil {
			t.Errorf("%s was written after the sync was cancelled", name)
		}
	}
	assertNoLeftovers(t, target)
	got := syncOnce(t, src, skills, target, Options{})
	if diff := cmp.Diff(map[string]Action{"alpha": ActionInstall, "beta": ActionInstall, "gamma": ActionInstall}, got); diff != "" {
		t.Fatalf("the sync after (-want +got):\n%s", diff)
	}
}
