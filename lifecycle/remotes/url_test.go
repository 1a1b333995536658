package remotes

import (
	"path/filepath"
	"testing"

	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/initrepo"
)

// TestRelativeRemoteURL checks that a remote added as a relative path is found from the top
// of the working tree, as git finds it, wherever skillgit runs from: the test runs in the
// package's folder, where ../srv.git does not exist.
func TestRelativeRemoteURL(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	srv := filepath.Join(filepath.Dir(dir), "srv.git")
	if _, err := initrepo.Init(initrepo.Options{Dir: srv, Bare: true}); err != nil {
		t.Fatal(err)
	}
	testenv.Git(t, dir, "remote", "add", "origin", "../srv.git")
	push(t, dir)
	if got, want := refAt(t, srv, "main"), refAt(t, dir, "main"); got != want {
		t.Errorf("the server's main is %q, want %q", got, want)
	}
	for _, u := range []string{"git@example.com:team/skills.git", "https://example.com/s.git", "/srv/s.git"} {
		if got := (repo{lifecycletest.Open(t, dir)}).resolveURL(u); got != u {
			t.Errorf("resolveURL(%q) = %q, want it as it is", u, got)
		}
	}
}
