package lifecycle

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/termtext"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/skilltree"
)

// minFingerprintPrefix is the shortest prefix of a fingerprint that --accept takes.
const minFingerprintPrefix = 8

// maxAcceptReason bounds the reason a publish commit repeats for each accepted finding.
const maxAcceptReason = 200

// acceptTrailer is the value of a Skillgit-Accept trailer on an approval: "FP RULE PATH".
func acceptTrailer(f audit.Finding) string {
	return f.Fingerprint + " " + f.RuleID + " " + f.File
}

// acceptedAllows turns the acceptances of a candidate's current approvals into allow-list
// entries for its audit. Approvals by policy and by the candidate's writers accept nothing,
// nor, when signed is true, approvals whose signature did not verify, nor any approval of
// content without a verified writer.
func acceptedAllows(c *Candidate, writers []string, signed bool) []audit.Allow {
	var out []audit.Allow
	if signed && c.Unverified != "" {
		return nil
	}
	for _, a := range c.Approvals {
		if a.Policy != "" || ledger.IsWriter(writers, a.Who.Email) || (signed && !a.Signed) {
			continue
		}
		for _, af := range a.Accepted {
			out = append(out, audit.Allow{Skill: cmp.Or(c.Skill, path.Base(c.Path)), Path: af.Path, Rule: af.Rule,
				Fingerprint: af.Fingerprint, Reason: cmp.Or(strings.TrimSpace(a.Note), "accepted in approval "+gitstore.ShortHash(a.Commit)),
				By: a.Who.String(), Source: audit.SourceApproval})
		}
	}
	return out
}

// candidateItem is the audit item of the candidate's skill folder at its tip, compared with
// the publish branch and carrying the acceptances of its current approvals.
func (a *approval) candidateItem() (auditrun.Item, error) {
	r, c := a.t.r, a.c
	tip, err := r.git.Objects().Commit(plumbing.NewHash(c.Tip))
	if err != nil {
		return auditrun.Item{}, err
	}
	mine, err := skilltree.FolderAt(r.git, tip.TreeHash, c.Path)
	if err != nil {
		return auditrun.Item{}, err
	}
	theirs, err := skilltree.FolderAt(r.git, r.tree, c.Path)
	if err != nil {
		return auditrun.Item{}, err
	}
	return auditrun.Item{Name: path.Base(c.Path), Path: c.Path, Tree: mine, Base: theirs, BaseLabel: gitstore.ShortRef(r.branch),
		Accepted: acceptedAllows(c, c.Writers, r.cfg.Approvals.Signed)}, nil
}

// checkAccepter refuses an acceptance without a reason or by one of the candidate's writers:
// whoever wrote a finding cannot wave it through.
func checkAccepter(id, note string, sig object.Signature, writers []string) error {
	if strings.TrimSpace(note) == "" {
		return fmt.Errorf("%s: accepting findings needs a reason: pass -m REASON; it is recorded with the acceptance", id)
	}
	if ledger.IsWriter(writers, sig.Email) {
		return fmt.Errorf("%s: %w: %s wrote this candidate and cannot accept its findings; someone else must review and accept them",
			id, ErrRefused, actorOf(sig))
	}
	return nil
}

// acceptFindings audits the candidate's current tip and resolves the fingerprints to accept
// against it. It refuses fingerprints the audit does not report and critical findings, naming
// them, and returns the findings accepted and the risk that remains once they are.
func (a *approval) acceptFindings() ([]audit.Finding, audit.Risk, error) {
	r, c := a.t.r, a.c
	it, err := a.candidateItem()
	if err != nil {
		return nil, 0, err
	}
	var findings []audit.Finding
	if !it.Tree.IsZero() {
		ar := r.AuditRunner()
		policy, err := ar.PolicyAt(r.tip, gitstore.ShortRef(r.branch))
		if err != nil {
			return nil, 0, err
		}
		reports, err := ar.Auditor(policy).Run([]auditrun.Item{it})
		if err != nil {
			return nil, 0, err
		}
		findings = reports[0].Report.Findings
	}
	accepted, err := resolveFingerprints(c.ID, findings, a.accept)
	if err != nil {
		return nil, 0, err
	}
	return accepted, remainingRisk(findings, accepted), nil
}

// resolveFingerprints finds each fingerprint (or a unique prefix of at least
// minFingerprintPrefix digits) among findings.
func resolveFingerprints(id string, findings []audit.Finding, fps []string) ([]audit.Finding, error) {
	var out []audit.Finding
	var unknown, critical []string
	for _, fp := range fps {
		f, ok := findFingerprint(findings, strings.ToLower(strings.TrimSpace(fp)))
		switch {
		case !ok:
			unknown = append(unknown, fp)
		case f.Severity >= audit.Critical:
			critical = append(critical, fmt.Sprintf("%s (%s in %s)", fp, f.RuleID, f.File))
		case !slices.ContainsFunc(out, func(o audit.Finding) bool { return o.Fingerprint == f.Fingerprint }):
			out = append(out, f)
		}
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("%s: %w: no finding with fingerprint %s in the audit of the candidate's current tip; `skillgit review %s` lists the fingerprints (a revise changes them)",
			id, ErrRefused, strings.Join(unknown, ", "), id)
	}
	if len(critical) > 0 {
		return nil, fmt.Errorf("%s: %w: critical findings cannot be accepted: %s; the candidate must be revised to remove them",
			id, ErrRefused, strings.Join(critical, ", "))
	}
	return out, nil
}

func findFingerprint(findings []audit.Finding, fp string) (audit.Finding, bool) {
	var match []audit.Finding
	for _, f := range findings {
		switch {
		case f.Fingerprint == fp:
			return f, true
		case len(fp) >= minFingerprintPrefix && strings.HasPrefix(f.Fingerprint, fp):
			match = append(match, f)
		}
	}
	if len(match) == 1 {
		return match[0], true
	}
	return audit.Finding{}, false
}

// remainingRisk is the highest tier of the findings that are neither suppressed nor accepted.
func remainingRisk(findings, accepted []audit.Finding) audit.Risk {
	risk := audit.RiskLow
	for _, f := range findings {
		if f.Suppressed == "" && !slices.ContainsFunc(accepted, func(a audit.Finding) bool { return a.Fingerprint == f.Fingerprint }) {
			risk = max(risk, f.Severity.Risk())
		}
	}
	return risk
}

// publishAccepts renders the acceptances an audit applied as the Skillgit-Accept trailers of a
// publish commit: "FP RULE PATH | WHO | REASON", so the trail tells what was accepted, by
// whom and why without reading the candidate's branch.
func publishAccepts(reports []audit.SkillReport) []string {
	var out []string
	for _, sr := range reports {
		if sr.Report == nil {
			continue
		}
		for _, f := range sr.Report.Findings {
			if f.SuppressedSource == audit.SourceApproval {
				out = append(out, acceptTrailer(f)+" | "+oneLine(f.SuppressedBy)+" | "+termtext.Cut(oneLine(f.Suppressed), maxAcceptReason))
			}
		}
	}
	return out
}

// oneLine joins the lines of s with spaces, so it fits a trailer.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
