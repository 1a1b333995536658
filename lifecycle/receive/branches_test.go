package receive_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/initrepo"
	"github.com/skillgit/skillgit/lifecycle/policy"
	"github.com/skillgit/skillgit/lifecycle/receive"
)

// noEnv is an empty environment.
func noEnv(string) string { return "" }

// checkUpdate runs the server's check of update u in the repository at dir and fails the test
// unless it refuses u with a refusal that matches refuse (under match, such as
// strings.HasPrefix), or, for an empty refuse, takes it. It returns the check's run.
func checkUpdate(t *testing.T, dir string, u gitstore.RefUpdate, refuse string, match func(s, refuse string) bool) *auditrun.HookRun {
	t.Helper()
	run, err := receive.Check(dir, []gitstore.RefUpdate{u}, noEnv, nil)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case refuse == "" && len(run.Refusals) > 0:
		t.Fatalf("refused: %q", run.Refusals)
	case refuse != "" && !slices.ContainsFunc(run.Refusals, func(s string) bool { return match(s, refuse) }):
		t.Fatalf("refusals %q; want one matching %q", run.Refusals, refuse)
	}
	return run
}

// TestCheckGuardsOtherPublishBranches checks which pushes of branches other than the
// publish branch a protected server refuses: those that would make a second publish branch.
func TestCheckGuardsOtherPublishBranches(t *testing.T) {
	dir := lifecycletest.RenamedProtectedRepo(t)
	selfNamed := policy.DefaultConfig("feature")
	lifecycletest.CommitOn(t, dir, "feature", map[string]string{policy.ConfigFile: string(selfNamed.Marshal())})
	lifecycletest.CommitOn(t, dir, "candidate/good-0001", map[string]string{"skills/good/SKILL.md": testenv.SkillMD("good", "Use the date command to print the date.")})
	testenv.Git(t, dir, "checkout", "-q", "--orphan", "notes")
	testenv.Git(t, dir, "rm", "-r", "-q", "--cached", ".")
	testenv.Git(t, dir, "clean", "-fdxq")
	testenv.WriteFiles(t, dir, map[string]string{"NOTES": "notes\n"})
	testenv.CommitAll(t, dir, "notes")
	testenv.Git(t, dir, "checkout", "-q", "release")
	release := lifecycletest.RevParse(t, dir, "release")

	tests := []struct {
		name   string
		update gitstore.RefUpdate
		refuse string // the start of the refusal; empty when the update passes
	}{
		{"former publish branch created", gitstore.RefUpdate{Ref: "refs/heads/skills", New: release}, "skills: .skillgit.yaml on the history of release named this branch"},
		{"former publish branch moved", gitstore.RefUpdate{Ref: "refs/heads/skills", Old: lifecycletest.RevParse(t, dir, "release~1"), New: release}, "skills: .skillgit.yaml on the history of release named this branch"},
		{"former publish branch deleted", gitstore.RefUpdate{Ref: "refs/heads/skills", Old: release}, ""},
		{"main holding a configuration", gitstore.RefUpdate{Ref: "refs/heads/main", New: release}, "main: it holds a .skillgit.yaml, and a clone"},
		{"main without one", gitstore.RefUpdate{Ref: "refs/heads/main", New: lifecycletest.RevParse(t, dir, "notes")}, ""},
		{"a branch naming itself", gitstore.RefUpdate{Ref: "refs/heads/feature", New: lifecycletest.RevParse(t, dir, "feature")}, "feature: its .skillgit.yaml names it the publish branch (publish_branch: feature)"},
		{"a candidate", gitstore.RefUpdate{Ref: "refs/heads/candidate/good-0001", New: lifecycletest.RevParse(t, dir, "candidate/good-0001")}, ""},
		{"a branch without a configuration", gitstore.RefUpdate{Ref: "refs/heads/notes", New: lifecycletest.RevParse(t, dir, "notes")}, ""},
		{"a tag", gitstore.RefUpdate{Ref: "refs/tags/skills", New: release}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := checkUpdate(t, dir, tt.update, tt.refuse, strings.HasPrefix)
			if tt.refuse != "" && !strings.Contains(run.Refusals[0], "skillgit propose") {
				t.Fatalf("refusal %q says nothing of what to do", run.Refusals[0])
			}
		})
	}
}

// TestCheckGuardsTheHeadBranch checks that the branch the server's HEAD names, which a
// cached clone follows, may not hold a configuration when it is not the publish branch.
func TestCheckGuardsTheHeadBranch(t *testing.T) {
	dir := lifecycletest.RenamedProtectedRepo(t)
	testenv.Git(t, dir, "checkout", "-q", "-b", "dev")
	run, err := receive.Check(dir, []gitstore.RefUpdate{{Ref: "refs/heads/dev", Old: lifecycletest.RevParse(t, dir, "release~1"), New: lifecycletest.RevParse(t, dir, "release")}}, noEnv, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Refusals) != 1 || !strings.HasPrefix(run.Refusals[0], "dev: it holds a .skillgit.yaml") {
		t.Fatalf("refusals %q; want dev's", run.Refusals)
	}
}

// TestCheckUnprotectedLetsBranchesBe checks that without server.protect nothing of
// this is refused.
func TestCheckUnprotectedLetsBranchesBe(t *testing.T) {
	testenv.Hermetic(t, nil)
	dir := filepath.Join(t.TempDir(), "repo")
	if _, err := initrepo.Init(initrepo.Options{Dir: dir, Branch: "release"}); err != nil {
		t.Fatal(err)
	}
	run, err := receive.Check(dir, []gitstore.RefUpdate{{Ref: "refs/heads/main", New: lifecycletest.RevParse(t, dir, "release")}}, noEnv, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Refusals) != 0 {
		t.Fatalf("refusals %q without server.protect", run.Refusals)
	}
}
