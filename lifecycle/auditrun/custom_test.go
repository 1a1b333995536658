package auditrun_test

import (
	"strings"
	"testing"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

const (
	teamLine = "Post the report to https://intranet.corp.example/upload when done."
	// teamRules holds one rule that fires on teamLine at severity sev.
	teamRules = `rules:
  - id: TEAM-NET-001
    severity: SEV
    title: Internal host
    help: Skills must not name internal hosts.
    pattern: 'intranet\.corp\.example'
    examples:
      fire: ["https://intranet.corp.example/x"]
      pass: ["https://www.example.com"]
`
)

// brokenRules holds the rule of teamRules with a pass example it fires on.
var brokenRules = strings.NewReplacer("SEV", "high", "https://www.example.com", "see intranet.corp.example").Replace(teamRules)

func rulesAt(sev string) map[string]string {
	return map[string]string{policy.AuditRulesFile: strings.Replace(teamRules, "SEV", sev, 1)}
}

// TestAuditCustomRulesFromPublishBranch checks that the rules of the publish branch, not those
// of the working tree, audit a skill, and that a change of them is not answered from the cache.
func TestAuditCustomRulesFromPublishBranch(t *testing.T) {
	repo := newRepo(t)
	testenv.WriteFiles(t, repo, map[string]string{"skills/team/SKILL.md": testenv.SkillMD("team", teamLine)})
	testenv.WriteFiles(t, repo, rulesAt("high"))
	run := mustAudit(t, auditrun.Request{Dir: repo, Paths: []string{"skills/team"}})
	if run.Verdict != audit.VerdictPass || run.Policy.Custom != nil {
		t.Fatalf("rules only in the working tree: verdict %v, rules %v; want PASS without rules", run.Verdict, run.Policy.Custom)
	}

	testenv.CommitAll(t, repo, "team rules")
	run = mustAudit(t, auditrun.Request{Dir: repo, Paths: []string{"skills/team"}})
	f := findingOf(t, run.Reports[0], "TEAM-NET-001", "intranet.corp.example")
	if f.Severity != audit.High || run.Verdict != audit.VerdictBlocked || run.Policy.Custom.Len() != 1 {
		t.Fatalf("rules on main: severity %v, verdict %v; want high and BLOCKED", f.Severity, run.Verdict)
	}

	testenv.WriteFiles(t, repo, rulesAt("medium"))
	testenv.CommitAll(t, repo, "team rule is medium")
	run = mustAudit(t, auditrun.Request{Dir: repo, Paths: []string{"skills/team"}})
	if f := findingOf(t, run.Reports[0], "TEAM-NET-001", "intranet.corp.example"); f.Severity != audit.Medium {
		t.Errorf("after the rule changed to medium the finding is %v: a stale cache entry", f.Severity)
	}
}

func TestAuditBrokenCustomRules(t *testing.T) {
	repo := newRepo(t)
	testenv.WriteFiles(t, repo, map[string]string{policy.AuditRulesFile: brokenRules, "skills/team/SKILL.md": testenv.SkillMD("team", teamLine)})
	testenv.CommitAll(t, repo, "broken rules")
	_, err := lifecycle.Audit(auditrun.Request{Dir: repo, Paths: []string{"skills/team"}})
	if err == nil || !strings.Contains(err.Error(), "main:.skillgit/audit-rules.yaml: invalid audit rules") ||
		!strings.Contains(err.Error(), `TEAM-NET-001 (line 2): pass example 1 "see intranet.corp.example" fires`) {
		t.Fatalf("audit under a broken rules file: %v", err)
	}
}

// TestPushCustomRules checks the server's path: a push bringing a broken rules file is a
// policy problem that blocks it, and a publish branch whose rules file is broken audits under
// the defaults with a warning, as with a broken allow list.
func TestPushCustomRules(t *testing.T) {
	dir := newRepo(t)
	none := func(string) string { return "" }
	testenv.Git(t, dir, "checkout", "-q", "-b", "feature")
	testenv.WriteFiles(t, dir, map[string]string{policy.AuditRulesFile: brokenRules})
	testenv.CommitAll(t, dir, "broken rules")
	update := []gitstore.RefUpdate{{Ref: "refs/heads/main", Old: revParse(t, dir, "main"), New: revParse(t, dir, "feature")}}
	run, err := lifecycle.AuditPushed(dir, update, none, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !run.Blocked() || len(run.Problems) != 1 || run.Problems[0].File != policy.AuditRulesFile ||
		!strings.Contains(run.Problems[0].Message, "pass example 1") {
		t.Fatalf("push of a broken rules file: blocked %v, problems %v", run.Blocked(), run.Problems)
	}

	testenv.Git(t, dir, "checkout", "-q", "main")
	testenv.Git(t, dir, "merge", "-q", "--ff-only", "feature")
	testenv.WriteFiles(t, dir, map[string]string{"skills/team/SKILL.md": testenv.SkillMD("team", cleanLine)})
	testenv.CommitAll(t, dir, "a skill")
	update = []gitstore.RefUpdate{{Ref: "refs/heads/main", Old: revParse(t, dir, "main~1"), New: revParse(t, dir, "main")}}
	run, err = lifecycle.AuditPushed(dir, update, none, nil)
	if err != nil {
		t.Fatal(err)
	}
	if run.Blocked() || len(run.Warnings) != 1 || !strings.Contains(run.Warnings[0], "invalid audit rules") {
		t.Fatalf("push under a broken rules file: blocked %v, warnings %q", run.Blocked(), run.Warnings)
	}
}
