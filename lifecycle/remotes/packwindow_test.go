package remotes

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/initrepo"
)

// TestPushPackDeltas checks that a push sends its objects whole unless pack.window asks for a
// delta search: two nearly equal files go as two full objects, and as one and a delta of it
// once pack.window is set.
func TestPushPackDeltas(t *testing.T) {
	for _, tc := range []struct {
		window     string
		wantDeltas bool
	}{{"", false}, {"10", true}} {
		dir := lifecycletest.NewRepo(t)
		srv := filepath.Join(t.TempDir(), "srv.git")
		if _, err := initrepo.Init(initrepo.Options{Dir: srv, Bare: true}); err != nil {
			t.Fatal(err)
		}
		// Keep what arrives as the pack it came in, to look at its entries.
		testenv.Git(t, srv, "config", "receive.unpackLimit", "1")
		testenv.Git(t, dir, "remote", "add", "origin", srv)
		if tc.window != "" {
			testenv.Git(t, dir, "config", "pack.window", tc.window)
		}
		text := strings.Repeat("Run gofmt -l . before every commit, and go vet ./... after it.\n", 400)
		testenv.WriteFiles(t, dir, map[string]string{"notes/a.md": text, "notes/b.md": text + "One more line.\n"})
		testenv.CommitAll(t, dir, "notes")
		push(t, dir)
		packs, err := filepath.Glob(filepath.Join(srv, "objects", "pack", "*.idx"))
		if err != nil || len(packs) != 1 {
			t.Fatalf("packs on the server: %v, %v", packs, err)
		}
		out := testenv.GitText(t, srv, "verify-pack", "-v", packs[0])
		if got := strings.Contains(out, "chain length"); got != tc.wantDeltas {
			t.Errorf("pack.window %q: deltas in the pushed pack = %v, want %v:\n%s", tc.window, got, tc.wantDeltas, out)
		}
	}
}
