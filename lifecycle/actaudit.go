package lifecycle

import (
	"fmt"
	"strings"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// actAudit is the audit an action runs on what it writes, under the policy committed on the
// publish branch of r, unless the skip switch of o is on.
type actAudit struct {
	r *Repo
	o ActOptions
}

// snapshot audits the proposed folder against the published one, unless the skip switch
// is on, and records the verdict in res.
func (a actAudit) snapshot(snap *snapshot, res *Result) error {
	r := a.r
	if snap.change == ChangeDelete {
		res.Risk, res.Audit = audit.RiskLow.String(), verdictSummary(audit.VerdictPass, 0)
		return nil
	}
	v, reports, err := a.run(r.Tip, []auditrun.Item{{Name: snap.skill.Name, Path: snap.dest, Tree: snap.tree,
		Base: snap.old, BaseLabel: short(r.Branch)}}, res)
	res.Risk, res.Audit, res.Reports = v.Risk, v.Audit, reports
	if err == nil && v.Risk == audit.RiskHigh.String() {
		res.addWarning(fmt.Sprintf("warning: %s: the audit rates this change high risk; it cannot be published while the audit is on (see `skillgit review`)", snap.skill.Name))
	}
	return err
}

// run audits items under the policy committed in policyFrom, unless the skip switch
// is on, and sums them up for the trailers.
func (a actAudit) run(policyFrom gitstore.Hash, items []auditrun.Item, res *Result) (auditVerdict, []audit.SkillReport, error) {
	ar := a.r.AuditRunner()
	cfg, _, err := ar.ConfigAt(policyFrom, short(a.r.Branch))
	if err != nil {
		return auditVerdict{}, nil, err
	}
	if skip, warn := policy.AuditSkipped(cfg, a.o.getenv); skip {
		res.addWarning(warn)
		return auditVerdict{Risk: "unknown", Audit: "skipped"}, nil, nil
	}
	policy, err := ar.PolicyAt(policyFrom, short(a.r.Branch))
	if err != nil {
		return auditVerdict{}, nil, err
	}
	reports, err := ar.Auditor(policy).Run(items)
	if err != nil {
		return auditVerdict{}, nil, err
	}
	findings := 0
	for _, sr := range reports {
		findings += len(sr.Report.Findings)
	}
	return auditVerdict{Risk: audit.Overall(reports).String(),
		Audit: verdictSummary(audit.Judge(reports, policy.FailOn), findings)}, reports, nil
}

// verdictSummary is the value of a Skillgit-Audit trailer for an audit that ran and reached
// verdict v under the policy: "pass", "needs review" or "blocked", then the ruleset and the
// number of findings, so a blocked change never reads as passed.
func verdictSummary(v audit.Verdict, findings int) string {
	return fmt.Sprintf("%s (ruleset %d, %d findings)", strings.ToLower(v.String()), audit.RulesetVersion, findings)
}

// into audits what an action writes under the publish branch's policy and records the
// verdict in res; nothing to audit (a deletion) is low risk. It reports whether the audit
// rates the change high risk.
func (a actAudit) into(items []auditrun.Item, res *Result) (bool, error) {
	v := auditVerdict{Risk: audit.RiskLow.String(), Audit: verdictSummary(audit.VerdictPass, 0)}
	if len(items) > 0 {
		var err error
		if v, res.Reports, err = a.run(a.r.Tip, items, res); err != nil {
			return false, err
		}
	}
	res.Risk, res.Audit = v.Risk, v.Audit
	return v.Risk == audit.RiskHigh.String(), nil
}
