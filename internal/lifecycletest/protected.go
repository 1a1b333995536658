package lifecycletest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/initrepo"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// RenamedProtectedRepo isolates the test (testenv.Hermetic) and makes a protected repository
// whose publish branch was skills and is now release, as `git branch -m` and a matching
// configuration make it: release's history names both branches. It returns the repository's
// folder.
func RenamedProtectedRepo(t testing.TB) string {
	t.Helper()
	testenv.Hermetic(t, nil)
	dir := filepath.Join(t.TempDir(), "repo")
	if _, err := initrepo.Init(initrepo.Options{Dir: dir, Branch: "skills"}); err != nil {
		t.Fatal(err)
	}
	testenv.Git(t, dir, "branch", "-m", "skills", "release")
	testenv.Git(t, dir, "config", "skillgit.publishBranch", "release")
	cfg := policy.DefaultConfig("release")
	cfg.Server.Protect = true
	testenv.WriteFiles(t, dir, map[string]string{policy.ConfigFile: string(cfg.Marshal())})
	testenv.CommitAll(t, dir, "publish on release, protected")
	return dir
}

// CommitOn makes branch from release, in the repository at dir, with files written on it in
// one commit, and checks release out again.
func CommitOn(t testing.TB, dir, branch string, files map[string]string) {
	t.Helper()
	testenv.Git(t, dir, "checkout", "-q", "-b", branch, "release")
	testenv.WriteFiles(t, dir, files)
	testenv.CommitAll(t, dir, "on "+branch)
	testenv.Git(t, dir, "checkout", "-q", "release")
}

// RevParse returns the commit rev names in the repository at dir.
func RevParse(t testing.TB, dir, rev string) gitstore.Hash {
	t.Helper()
	out := strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", rev))
	h := plumbing.NewHash(out)
	if h.IsZero() || h.String() != out {
		t.Fatalf("git rev-parse %s: %q", rev, out)
	}
	return h
}
