package lifecycle_test

import (
	"path/filepath"
	"testing"

	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/lifecycle"
)

// TestRepoAtTakesItsFolder checks that the folder a Repo runs in is the one RepoAt is given,
// made absolute, since nothing outside lifecycle can set it afterwards; and that the Repo reads
// the branch, tip and configuration it was given.
func TestRepoAtTakesItsFolder(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	r := lifecycletest.Open(t, dir)
	at := func(dir string) *lifecycle.Repo {
		t.Helper()
		rr, err := lifecycle.RepoAt(r.Git(), r.Branch(), r.Tip(), r.Config(), dir)
		if err != nil {
			t.Fatal(err)
		}
		return rr
	}
	same := at(r.Dir())
	if same.Dir() != r.Dir() || same.Branch() != r.Branch() || same.Tip() != r.Tip() || same.Tree() != r.Tree() || same.Config() != r.Config() {
		t.Fatalf("RepoAt(%s) is at %s %s %s in %s; want %s %s %s in %s", r.Dir(),
			same.Branch(), same.Tip(), same.Tree(), same.Dir(), r.Branch(), r.Tip(), r.Tree(), r.Dir())
	}
	if got := at("").Dir(); got != "" {
		t.Fatalf("RepoAt without a folder runs in %q; want none", got)
	}
	t.Chdir(filepath.Join(dir, "skills"))
	got, err := filepath.EvalSymlinks(at("..").Dir())
	if err != nil {
		t.Fatal(err)
	}
	want, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("RepoAt(..) from the skills folder runs in %s; want %s", got, want)
	}
}
