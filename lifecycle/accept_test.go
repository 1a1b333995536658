package lifecycle

import (
	"errors"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// hiddenLine carries Unicode tag characters: a critical finding.
const hiddenLine = "Convert files.\U000E0069\U000E0067\U000E006E\U000E006F\U000E0072\U000E0065"

// proposeInstaller proposes a skill named inst whose SKILL.md holds lines, as agent.
func proposeInstaller(t *testing.T, dir, src string, lines ...string) string {
	t.Helper()
	testenv.WriteFiles(t, src, map[string]string{"inst/SKILL.md": testenv.SkillMD("inst", lines...)})
	return propose(t, dir, ProposeOptions{ActOptions: agent, From: src + "/inst", Message: "installer"}).ID
}

// reviewFinding returns the candidate's finding of rule.
func reviewFinding(t *testing.T, dir, id, rule string) audit.Finding {
	t.Helper()
	rv, err := open(t, dir).Review(id)
	if err != nil {
		t.Fatal(err)
	}
	for _, sr := range rv.Reports {
		for _, f := range sr.Report.Findings {
			if f.RuleID == rule {
				return f
			}
		}
	}
	t.Fatalf("%s: no %s finding in the review", id, rule)
	return audit.Finding{}
}

func TestAcceptRefusals(t *testing.T) {
	dir := newRepo(t)
	src := t.TempDir()
	id := proposeInstaller(t, dir, src, evilLine, hiddenLine)
	high := reviewFinding(t, dir, id, "SG-EXE-005").Fingerprint
	crit := reviewFinding(t, dir, id, "SG-HID-001").Fingerprint
	shouting := ActOptions{Author: "Agent Smith <AGENT@Example.com>"}
	tests := []struct {
		name    string
		fps     []string
		note    string
		who     ActOptions
		wantErr string
	}{
		{"author", []string{high}, "fine", agent, "cannot accept"},
		{"author with other letter case", []string{high}, "fine", shouting, "cannot accept"},
		{"no reason", []string{high}, "", lead, "needs a reason"},
		{"unknown fingerprint", []string{high, "0123456789abcdef"}, "fine", lead, "0123456789abcdef"},
		{"critical", []string{crit}, "fine", lead, "critical findings cannot be accepted: " + crit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := open(t, dir).ApproveAccepting(id, tt.note, tt.fps, tt.who)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), id) {
				t.Fatalf("err = %v; want one naming %s and containing %q", err, id, tt.wantErr)
			}
		})
	}
	c, err := open(t, dir).Book().Candidate(id)
	if err != nil || len(c.Approvals) != 0 {
		t.Fatalf("refused acceptances left approvals: %v %+v", err, c.Approvals)
	}
}

func TestAcceptHighThenPublish(t *testing.T) {
	dir := newRepo(t)
	src := t.TempDir()
	id := proposeInstaller(t, dir, src, evilLine)
	fp := reviewFinding(t, dir, id, "SG-EXE-005").Fingerprint
	if _, err := open(t, dir).Approve(id, "ok", lead); err != nil {
		t.Fatal(err)
	}
	if _, err := open(t, dir).Publish(id, "", lead); !errors.Is(err, ErrRefused) {
		t.Fatalf("publish of a high candidate: %v; want refused", err)
	}
	res, err := open(t, dir).ApproveAccepting(id, "our own installer, pinned", []string{fp[:12]}, lead)
	if err != nil {
		t.Fatal(err)
	}
	if res.State != StateApproved || res.Risk == "high" {
		t.Errorf("after accepting: state %s, risk %s; want approved and below high", res.State, res.Risk)
	}
	f := reviewFinding(t, dir, id, "SG-EXE-005")
	if f.Suppressed != "our own installer, pinned" || f.SuppressedBy != "Grace Hopper <grace@example.com>" || f.SuppressedSource != audit.SourceApproval {
		t.Errorf("review: suppressed %q by %q from %q", f.Suppressed, f.SuppressedBy, f.SuppressedSource)
	}
	pub, err := open(t, dir).Publish(id, "", lead)
	if err != nil {
		t.Fatalf("publish after accepting the high finding: %v", err)
	}
	log, err := open(t, dir).Log("inst")
	if err != nil || len(log) == 0 || log[0].Commit != pub.Commit {
		t.Fatalf("log: %v %+v", err, log)
	}
	want := AcceptedFinding{Fingerprint: fp, Rule: "SG-EXE-005", Path: "SKILL.md", By: "Grace Hopper <grace@example.com>", Reason: "our own installer, pinned"}
	if len(log[0].Accepted) != 1 || log[0].Accepted[0] != want {
		t.Errorf("log accepted %+v; want %+v", log[0].Accepted, want)
	}
	// A push of the publish passes the pre-push audit: the acceptance is read from the
	// candidate's approval, which the publish merged.
	r := open(t, dir)
	pc, err := r.git.Objects().Commit(plumbing.NewHash(pub.Commit))
	if err != nil {
		t.Fatal(err)
	}
	update := []gitstore.RefUpdate{{Ref: "refs/heads/main", Old: pc.ParentHashes[0], New: plumbing.NewHash(pub.Commit)}}
	run, err := AuditPushed(dir, update, func(string) string { return "" }, nil)
	if err != nil || run.Verdict == audit.VerdictBlocked {
		t.Errorf("pre-push of the publish: %v, verdict %v; want it to pass", err, run.Verdict)
	}
}

func TestAcceptVoidedByRevise(t *testing.T) {
	dir := newRepo(t)
	src := t.TempDir()
	id := proposeInstaller(t, dir, src, evilLine)
	fp := reviewFinding(t, dir, id, "SG-EXE-005").Fingerprint
	if _, err := open(t, dir).ApproveAccepting(id, "reviewed", []string{fp}, lead); err != nil {
		t.Fatal(err)
	}
	testenv.WriteFiles(t, src, map[string]string{"inst/SKILL.md": testenv.SkillMD("inst", evilLine, cleanLine)})
	if _, err := open(t, dir).Revise(id, ProposeOptions{ActOptions: agent, From: src + "/inst", Message: "more"}); err != nil {
		t.Fatal(err)
	}
	if f := reviewFinding(t, dir, id, "SG-EXE-005"); f.Suppressed != "" {
		t.Errorf("after a revise the finding is still accepted: %q", f.Suppressed)
	}
	if _, err := open(t, dir).Approve(id, "ok", lead); err != nil {
		t.Fatal(err)
	}
	if _, err := open(t, dir).Publish(id, "", lead); !errors.Is(err, ErrRefused) {
		t.Fatalf("publish after a revise voided the acceptance: %v; want refused", err)
	}
}

// TestApprovalsCompareEmailsWithoutCase checks that one person approving twice under two
// spellings of their email counts once, and that a writer counts as a writer however the
// email is spelled.
func TestApprovalsCompareEmailsWithoutCase(t *testing.T) {
	cfg := &policy.Config{Approvals: policy.Approvals{Required: 2}}
	approval := func(email string) Approval { return Approval{Who: Actor{Name: "G", Email: email}} }
	c := &Candidate{Risk: "low", Approvals: []Approval{approval("grace@example.com"), approval("Grace@Example.com")}}
	if ok, _ := ledger.ApprovedEnough(cfg, c, nil); ok {
		t.Error("two spellings of one email counted as two approvers")
	}
	cfg.Approvals.Required = 1
	c.Approvals = []Approval{approval("AGENT@example.com")}
	if ok, _ := ledger.ApprovedEnough(cfg, c, []string{"agent@example.com"}); ok {
		t.Error("a writer's approval counted under another spelling of their email")
	}
}
