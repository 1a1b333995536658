package auditrun_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// TestAuditPushedPolicyFromBase checks that a push which switches the audit off and adds a
// malicious skill in the same commits is still audited, under the old tip's policy, and that
// a switch already on at the old tip is honoured with a warning.
func TestAuditPushedPolicyFromBase(t *testing.T) {
	dir := newRepo(t)
	testenv.Git(t, dir, "checkout", "-q", "-b", "feature")
	cfg := policy.DefaultConfig("main")
	cfg.Audit.SkipSecurityAudit = true
	testenv.WriteFiles(t, dir, map[string]string{policy.ConfigFile: string(cfg.Marshal()), "skills/evil/SKILL.md": testenv.SkillMD("evil", evilLine)})
	testenv.CommitAll(t, dir, "switch the audit off and add evil")
	update := []gitstore.RefUpdate{{Ref: "refs/heads/main", Old: revParse(t, dir, "main"), New: revParse(t, dir, "feature")}}
	run, err := lifecycle.AuditPushed(dir, update, func(string) string { return "" }, nil)
	if err != nil {
		t.Fatal(err)
	}
	if run.Skipped || !run.Blocked() || len(run.Reports) != 1 || run.Reports[0].Path != "skills/evil" {
		t.Fatalf("push that switches the audit off: skipped %v, blocked %v, reports %v", run.Skipped, run.Blocked(), run.Reports)
	}
	// Once the switch is on the old tip, the next push is not audited, and says so.
	testenv.Git(t, dir, "checkout", "-q", "main")
	testenv.Git(t, dir, "merge", "-q", "--ff-only", "feature")
	testenv.WriteFiles(t, dir, map[string]string{"skills/evil2/SKILL.md": testenv.SkillMD("evil2", evilLine)})
	testenv.CommitAll(t, dir, "more")
	update = []gitstore.RefUpdate{{Ref: "refs/heads/main", Old: revParse(t, dir, "main~1"), New: revParse(t, dir, "main")}}
	run, err = lifecycle.AuditPushed(dir, update, func(string) string { return "" }, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !run.Skipped || run.Blocked() || len(run.Warnings) != 1 || !strings.Contains(run.Warnings[0], "skip_security_audit") {
		t.Fatalf("push under a base that skips: skipped %v, blocked %v, warnings %q", run.Skipped, run.Blocked(), run.Warnings)
	}
}

func TestAuditPushedNewBranchAndDeletion(t *testing.T) {
	dir := newRepo(t)
	testenv.Git(t, dir, "checkout", "-q", "-b", "candidate/x")
	testenv.WriteFiles(t, dir, map[string]string{"skills/alpha/SKILL.md": testenv.SkillMD("alpha", cleanLine), "skills/evil/SKILL.md": testenv.SkillMD("evil", evilLine)})
	testenv.CommitAll(t, dir, "two skills")
	updates := []gitstore.RefUpdate{
		{Ref: "refs/heads/candidate/x", New: revParse(t, dir, "candidate/x")},
		{Ref: "refs/heads/gone", Old: revParse(t, dir, "main")},
	}
	run, err := lifecycle.AuditPushed(dir, updates, func(string) string { return "" }, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !run.Blocked() || len(run.Reports) != 2 || !strings.Contains(run.Title, "refs/heads/candidate/x") {
		t.Fatalf("new branch: blocked %v, %d reports, title %q", run.Blocked(), len(run.Reports), run.Title)
	}
}

// TestAuditStaged checks that the index, not the working tree, is audited and validated.
func TestAuditStaged(t *testing.T) {
	dir := newRepo(t)
	none := func(string) string { return "" }
	testenv.WriteFiles(t, dir, map[string]string{"skills/alpha/SKILL.md": testenv.SkillMD("alpha", evilLine)})
	testenv.Git(t, dir, "add", "-A")
	testenv.WriteFiles(t, dir, map[string]string{"skills/alpha/SKILL.md": testenv.SkillMD("alpha", cleanLine)})
	run, err := lifecycle.AuditStagedScope(dir, auditrun.StagedScope{}, none)
	if err != nil {
		t.Fatal(err)
	}
	if !run.Blocked() || len(run.Reports) != 1 {
		t.Fatalf("malicious staged, benign in the worktree: blocked %v, reports %v", run.Blocked(), run.Reports)
	}
	testenv.Git(t, dir, "add", "-A")
	testenv.WriteFiles(t, dir, map[string]string{"skills/alpha/SKILL.md": testenv.SkillMD("alpha", evilLine)})
	if run, err = lifecycle.AuditStagedScope(dir, auditrun.StagedScope{}, none); err != nil || run.Blocked() {
		t.Fatalf("benign staged, malicious in the worktree: %v blocked %v", err, run.Blocked())
	}
	testenv.WriteFiles(t, dir, map[string]string{"skills/beta/SKILL.md": testenv.SkillMD("gamma", cleanLine)})
	testenv.Git(t, dir, "add", "skills/beta")
	run, err = lifecycle.AuditStagedScope(dir, auditrun.StagedScope{}, none)
	if err != nil || !run.Blocked() || len(run.Problems) == 0 || !strings.Contains(run.Problems[0].File, "skills/beta") {
		t.Fatalf("a new skill whose name is not its folder's: %v, problems %v", err, run.Problems)
	}
}

func TestAuditStagedOutsideSkillgit(t *testing.T) {
	hermetic(t)
	dir := t.TempDir()
	testenv.Git(t, dir, "init", "-q")
	run, err := lifecycle.AuditStagedScope(dir, auditrun.StagedScope{}, os.Getenv)
	if err != nil || !run.NotSkillgit || run.Blocked() {
		t.Fatalf("plain git repository: %v %+v", err, run)
	}
}

// TestAuditStagedIndexFile checks that the index GIT_INDEX_FILE names, which `git commit -a`
// stages into, is the one audited.
func TestAuditStagedIndexFile(t *testing.T) {
	dir := newRepo(t)
	testenv.WriteFiles(t, dir, map[string]string{"skills/alpha/SKILL.md": testenv.SkillMD("alpha", evilLine)})
	alt := dir + "/.git/index.alt"
	cmd := exec.Command("git", "-C", dir, "add", "-A")
	cmd.Env = append(os.Environ(), "GIT_INDEX_FILE="+alt)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git add into %s: %v\n%s", alt, err, out)
	}
	env := func(k string) string {
		if k == "GIT_INDEX_FILE" {
			return ".git/index.alt"
		}
		return ""
	}
	run, err := lifecycle.AuditStagedScope(dir, auditrun.StagedScope{}, env)
	if err != nil || !run.Blocked() {
		t.Fatalf("malicious skill staged in GIT_INDEX_FILE: %v, blocked %v", err, run.Blocked())
	}
	if run, err = lifecycle.AuditStagedScope(dir, auditrun.StagedScope{}, func(string) string { return "" }); err != nil || run.Blocked() || len(run.Reports) != 0 {
		t.Fatalf("the repository's own index stages nothing: %v, %+v", err, run)
	}
}
