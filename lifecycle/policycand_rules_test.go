package lifecycle

import (
	"errors"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// TestProposeConfigAuditRules checks that propose --config refuses a rules file whose rule
// fails its examples, naming the rule and the example, and proposes a valid one as policy.
func TestProposeConfigAuditRules(t *testing.T) {
	dir := newRepo(t)
	rules := "rules:\n  - id: TEAM-NET-001\n    severity: high\n    title: Internal host\n    help: Use the gateway.\n" +
		"    pattern: 'intranet\\.corp'\n    examples:\n      fire: [\"https://intranet.corp/x\"]\n      pass: [PASS]\n"
	testenv.WriteFiles(t, dir, map[string]string{policy.AuditRulesFile: strings.Replace(rules, "PASS", "intranet.corp", 1)})
	_, err := open(t, dir).ProposeConfig(ProposeOptions{ActOptions: agent})
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), `TEAM-NET-001 (line 2): pass example 1 "intranet.corp" fires`) {
		t.Fatalf("rules failing an example: %v; want refused naming the rule and example", err)
	}
	if out := testenv.GitText(t, dir, "for-each-ref", "refs/heads/candidate/"); out != "" {
		t.Errorf("candidates after the refusal: %q", out)
	}

	testenv.WriteFiles(t, dir, map[string]string{policy.AuditRulesFile: strings.Replace(rules, "PASS", "https://www.example.com", 1)})
	res := proposeConfig(t, dir, agent)
	approveAsLead(t, dir, res.ID)
	if _, err := open(t, dir).Publish(res.ID, "", lead); err != nil {
		t.Fatalf("Publish: %v", err)
	}
	p, err := open(t, dir).AuditRunner().PolicyAt(open(t, dir).tip, "main")
	if err != nil {
		t.Fatal(err)
	}
	if p.Custom.Len() != 1 {
		t.Fatalf("policy after publish: %d rules; want the team's rule", p.Custom.Len())
	}
}
