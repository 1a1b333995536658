// Package lifecycletest holds test helpers for packages built on lifecycle: a fresh
// repository, an opened one, and the proposal and approval steps the tests take over and over.
package lifecycletest

import (
	"path/filepath"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/initrepo"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

var (
	// Agent is who proposes in the tests.
	Agent = lifecycle.ActOptions{Author: "Agent Smith <agent@example.com>"}
	// Lead is who approves and publishes in the tests.
	Lead = lifecycle.ActOptions{Author: "Grace Hopper <grace@example.com>"}
)

// NewRepo isolates the test from the machine's configuration (testenv.Hermetic) and creates
// a skillgit repository with a working tree on main. It returns the repository's folder.
func NewRepo(t testing.TB) string {
	t.Helper()
	testenv.Hermetic(t, nil)
	dir := filepath.Join(t.TempDir(), "repo")
	if _, err := initrepo.Init(initrepo.Options{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Open opens the repository in dir and closes it when the test ends.
func Open(t testing.TB, dir string) *lifecycle.Repo {
	t.Helper()
	r, err := lifecycle.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// ProposeNew proposes the skill name, with the given body lines, from a folder outside the
// repository, as Agent.
func ProposeNew(t testing.TB, dir, name string, body ...string) *lifecycle.Result {
	t.Helper()
	src := t.TempDir()
	testenv.WriteFiles(t, src, map[string]string{name + "/SKILL.md": testenv.SkillMD(name, body...)})
	o := lifecycle.ProposeOptions{ActOptions: Agent, From: filepath.Join(src, name)}
	res, err := Open(t, dir).Propose(o)
	if err != nil {
		t.Fatalf("propose %+v: %v", o, err)
	}
	return res
}

// ApproveAsLead approves candidate id as Lead, with the message "reviewed".
func ApproveAsLead(t testing.TB, dir, id string) {
	t.Helper()
	if _, err := Open(t, dir).Approve(id, "reviewed", Lead); err != nil {
		t.Fatalf("approve %s: %v", id, err)
	}
}

// SetMode sets the repository's mode to m as Lead and checks that it reads back as m.
func SetMode(t testing.TB, dir string, m policy.Mode) {
	t.Helper()
	if _, err := Open(t, dir).SetMode(m, Lead); err != nil {
		t.Fatal(err)
	}
	if got := Open(t, dir).Config().Mode; got != m {
		t.Fatalf("mode %s after SetMode(%s)", got, m)
	}
}
