package hooks

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
)

func blockedRun() *auditrun.HookRun {
	return &auditrun.HookRun{
		Title:   "staged changes",
		FailOn:  audit.RiskHigh,
		Verdict: audit.VerdictBlocked,
		Reports: []audit.SkillReport{
			{Name: "evil", Path: "skills/evil", Report: &audit.Report{Risk: audit.RiskHigh, Findings: []audit.Finding{
				{RuleID: "SG-EXE-005", Severity: audit.High, File: "SKILL.md", Line: 6, Message: "remote script\npiped \x1b[31minto a shell"},
				{RuleID: "SG-LOW-001", Severity: audit.Medium, File: "SKILL.md", Line: 7, Message: "below fail_on"},
				{RuleID: "SG-EXE-001", Severity: audit.Critical, File: "run.sh", Line: 1, Message: "accepted", Suppressed: "reviewed"},
			}}},
			{Name: "good", Path: "skills/good", Report: &audit.Report{}},
		},
		Problems: []catalog.Problem{{File: "skills/Bad/SKILL.md", Line: 2, Message: `name "bad" does not match its folder "Bad"`}},
	}
}

func TestRenderBlockedCommit(t *testing.T) {
	var b strings.Builder
	p := printer{w: &b, hook: PreCommit}
	p.warnings([]string{"warning: something"})
	p.blocked(blockedRun(), nil)
	want := `skillgit: warning: something
skillgit: commit refused: staged changes (fail_on: high)
  evil: skills/evil/SKILL.md:6 SG-EXE-005 (high): remote script piped \x1b[31minto a shell
  skills/Bad/SKILL.md:2: name "bad" does not match its folder "Bad"
skillgit: details: skillgit audit skills/evil
skillgit: fix the skill or file named above, stage the fix with ` + "`git add`" + ` and commit again, or unstage it with ` + "`git restore --staged <path>`" + `
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
}

func TestRenderBlockedReceive(t *testing.T) {
	var b strings.Builder
	run := blockedRun()
	run.Title = "refs/heads/main 1111111..2222222"
	updates := []gitstore.RefUpdate{
		{Ref: "refs/heads/main", Old: hash(t, idA), New: hash(t, idB)},
		{Ref: "refs/heads/new", New: hash(t, idB)},
		{Ref: "refs/heads/gone", Old: hash(t, idA)},
	}
	printer{w: &b, hook: PreReceive}.blocked(run, updates)
	for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if !strings.HasPrefix(line, "skillgit: ") {
			t.Errorf("line without the skillgit: prefix: %q", line)
		}
	}
	for _, want := range []string{
		"skillgit: push refused: refs/heads/main 1111111..2222222 (fail_on: high)\n",
		"skillgit: evil: skills/evil/SKILL.md:6 SG-EXE-005 (high)",
		"skillgit: details: skillgit audit --rev 111111111111..222222222222\n",
		"skillgit: details: skillgit audit --rev 222222222222\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "SG-LOW-001") || strings.Contains(b.String(), "SG-EXE-001") {
		t.Errorf("report shows a finding below fail_on or an accepted one:\n%s", b.String())
	}
}

func TestRunUnknownHook(t *testing.T) {
	_, err := Run("post-commit", RunOptions{Dir: t.TempDir(), Stderr: &strings.Builder{}})
	if err == nil || !strings.Contains(err.Error(), "unknown") {
		t.Errorf("Run(post-commit): err = %v", err)
	}
}

func TestRunOutsideSkillgitRepository(t *testing.T) {
	dir := newRepo(t)
	var stderr strings.Builder
	code, err := Run(PreCommit, RunOptions{Dir: dir, Stderr: &stderr})
	if err != nil || code != 0 || stderr.Len() != 0 {
		t.Errorf("pre-commit in a plain git repository: code %d, err %v, stderr %q", code, err, stderr.String())
	}
	code, err = Run(PrePush, RunOptions{Dir: dir, Stdin: strings.NewReader("refs/heads/main " + idA + " refs/heads/main " + id0 + "\n"), Stderr: &stderr})
	if err != nil || code != 0 {
		t.Errorf("pre-push in a plain git repository: code %d, err %v", code, err)
	}
}
