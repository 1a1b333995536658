package lifecycle_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// TestOpenBranchAndSelfNamedBranches checks that OpenBranch reads the branch asked for even
// where Open would try main first, and that SelfNamedBranches lists exactly the branches whose
// configuration names them: not candidates, which hold the publish branch's.
func TestOpenBranchAndSelfNamedBranches(t *testing.T) {
	dir := lifecycletest.RenamedProtectedRepo(t)
	testenv.Git(t, dir, "config", "--unset", "skillgit.publishBranch")
	lifecycletest.CommitOn(t, dir, "main", map[string]string{policy.ConfigFile: string(policy.DefaultConfig("main").Marshal())})
	lifecycletest.CommitOn(t, dir, "candidate/good-0001", map[string]string{"skills/good/SKILL.md": testenv.SkillMD("good", "Use the date command to print the date.")})

	guessed, err := lifecycle.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer guessed.Close()
	if guessed.Branch() != "refs/heads/main" {
		t.Fatalf("Open read %s; this test needs it to try main first", guessed.Branch())
	}
	r, err := lifecycle.OpenBranch(dir, "release")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Branch() != "refs/heads/release" || r.Config().PublishBranch != "release" {
		t.Fatalf("OpenBranch(release) read %s, configuration naming %s", r.Branch(), r.Config().PublishBranch)
	}
	if _, err := lifecycle.OpenBranch(dir, "gone"); !errors.Is(err, lifecycle.ErrNotInitialized) {
		t.Fatalf("OpenBranch of a missing branch: %v", err)
	}
	if _, err := lifecycle.OpenBranch(dir, "../up"); err == nil {
		t.Fatal("OpenBranch took a bad branch name")
	}
	if _, err := lifecycle.OpenBranch(dir, "candidate/good-0001"); err == nil {
		t.Fatal("OpenBranch read a candidate, whose configuration names release, as a publish branch")
	}

	named, err := lifecycle.SelfNamedBranches(r.Git())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(named, []string{"main", "release"}) {
		t.Fatalf("SelfNamedBranches = %q; want main, release", named)
	}
}
