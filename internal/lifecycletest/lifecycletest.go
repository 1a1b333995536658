// Package lifecycletest holds the test helpers of the packages built on lifecycle: a fresh,
// isolated skill repository and the repository opened for a test.
package lifecycletest

import (
	"path/filepath"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle"
)

// NewRepo isolates the test from the machine's git and skillgit settings (testenv.Hermetic)
// and creates a skillgit repository with a working tree on main, returning its folder.
func NewRepo(t testing.TB) string {
	t.Helper()
	testenv.Hermetic(t, nil)
	dir := filepath.Join(t.TempDir(), "repo")
	if _, err := lifecycle.Init(lifecycle.InitOptions{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Open opens the skillgit repository at dir, closed when the test ends.
func Open(t testing.TB, dir string) *lifecycle.Repo {
	t.Helper()
	r, err := lifecycle.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}
