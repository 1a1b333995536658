package lifecycle

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// renamedProtectedRepo makes a protected repository whose publish branch was skills and is now
// release, as `git branch -m` and a matching configuration make it: release's history names
// both branches.
func renamedProtectedRepo(t *testing.T) string {
	t.Helper()
	hermetic(t)
	dir := filepath.Join(t.TempDir(), "repo")
	if _, err := Init(InitOptions{Dir: dir, Branch: "skills"}); err != nil {
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

// commitOn makes branch from release with files written and returns nothing; the branch's
// tip is read with revParse.
func commitOn(t *testing.T, dir, branch string, files map[string]string) {
	t.Helper()
	testenv.Git(t, dir, "checkout", "-q", "-b", branch, "release")
	testenv.WriteFiles(t, dir, files)
	testenv.CommitAll(t, dir, "on "+branch)
	testenv.Git(t, dir, "checkout", "-q", "release")
}

// TestReceivePushedGuardsOtherPublishBranches checks which pushes of branches other than the
// publish branch a protected server refuses: those that would make a second publish branch.
func TestReceivePushedGuardsOtherPublishBranches(t *testing.T) {
	dir := renamedProtectedRepo(t)
	selfNamed := policy.DefaultConfig("feature")
	commitOn(t, dir, "feature", map[string]string{policy.ConfigFile: string(selfNamed.Marshal())})
	commitOn(t, dir, "candidate/good-0001", map[string]string{"skills/good/SKILL.md": testenv.SkillMD("good", cleanLine)})
	testenv.Git(t, dir, "checkout", "-q", "--orphan", "notes")
	testenv.Git(t, dir, "rm", "-r", "-q", "--cached", ".")
	testenv.Git(t, dir, "clean", "-fdxq")
	testenv.WriteFiles(t, dir, map[string]string{"NOTES": "notes\n"})
	testenv.CommitAll(t, dir, "notes")
	testenv.Git(t, dir, "checkout", "-q", "release")
	release := revParse(t, dir, "release")

	tests := []struct {
		name   string
		update gitstore.RefUpdate
		refuse string // the start of the refusal; empty when the update passes
	}{
		{"former publish branch created", gitstore.RefUpdate{Ref: "refs/heads/skills", New: release}, "skills: .skillgit.yaml on the history of release named this branch"},
		{"former publish branch moved", gitstore.RefUpdate{Ref: "refs/heads/skills", Old: revParse(t, dir, "release~1"), New: release}, "skills: .skillgit.yaml on the history of release named this branch"},
		{"former publish branch deleted", gitstore.RefUpdate{Ref: "refs/heads/skills", Old: release}, ""},
		{"main holding a configuration", gitstore.RefUpdate{Ref: "refs/heads/main", New: release}, "main: it holds a .skillgit.yaml, and a clone"},
		{"main without one", gitstore.RefUpdate{Ref: "refs/heads/main", New: revParse(t, dir, "notes")}, ""},
		{"a branch naming itself", gitstore.RefUpdate{Ref: "refs/heads/feature", New: revParse(t, dir, "feature")}, "feature: its .skillgit.yaml names it the publish branch (publish_branch: feature)"},
		{"a candidate", gitstore.RefUpdate{Ref: "refs/heads/candidate/good-0001", New: revParse(t, dir, "candidate/good-0001")}, ""},
		{"a branch without a configuration", gitstore.RefUpdate{Ref: "refs/heads/notes", New: revParse(t, dir, "notes")}, ""},
		{"a tag", gitstore.RefUpdate{Ref: "refs/tags/skills", New: release}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run, err := ReceivePushed(dir, []gitstore.RefUpdate{tt.update}, func(string) string { return "" }, nil)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.refuse == "" && len(run.Refusals) > 0:
				t.Fatalf("refused: %q", run.Refusals)
			case tt.refuse != "" && !slices.ContainsFunc(run.Refusals, func(s string) bool { return strings.HasPrefix(s, tt.refuse) }):
				t.Fatalf("refusals %q; want one starting %q", run.Refusals, tt.refuse)
			case tt.refuse != "" && !strings.Contains(run.Refusals[0], "skillgit propose"):
				t.Fatalf("refusal %q says nothing of what to do", run.Refusals[0])
			}
		})
	}
}

// TestReceivePushedGuardsTheHeadBranch checks that the branch the server's HEAD names, which a
// cached clone follows, may not hold a configuration when it is not the publish branch.
func TestReceivePushedGuardsTheHeadBranch(t *testing.T) {
	dir := renamedProtectedRepo(t)
	testenv.Git(t, dir, "checkout", "-q", "-b", "dev")
	run, err := ReceivePushed(dir, []gitstore.RefUpdate{{Ref: "refs/heads/dev", Old: revParse(t, dir, "release~1"), New: revParse(t, dir, "release")}}, func(string) string { return "" }, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Refusals) != 1 || !strings.HasPrefix(run.Refusals[0], "dev: it holds a .skillgit.yaml") {
		t.Fatalf("refusals %q; want dev's", run.Refusals)
	}
}

// TestReceivePushedUnprotectedLetsBranchesBe checks that without server.protect nothing of
// this is refused.
func TestReceivePushedUnprotectedLetsBranchesBe(t *testing.T) {
	hermetic(t)
	dir := filepath.Join(t.TempDir(), "repo")
	if _, err := Init(InitOptions{Dir: dir, Branch: "release"}); err != nil {
		t.Fatal(err)
	}
	run, err := ReceivePushed(dir, []gitstore.RefUpdate{{Ref: "refs/heads/main", New: revParse(t, dir, "release")}}, func(string) string { return "" }, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Refusals) != 0 {
		t.Fatalf("refusals %q without server.protect", run.Refusals)
	}
}
