package lifecycle

import (
	"fmt"

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
		res.Risk, res.Audit = audit.RiskLow.String(), auditrun.VerdictSummary(audit.VerdictPass, 0)
		return nil
	}
	v, reports, err := a.run(r.tip, []auditrun.Item{{Name: snap.skill.Name, Path: snap.dest, Tree: snap.tree,
		Base: snap.old, BaseLabel: gitstore.ShortRef(r.branch)}}, res)
	res.Risk, res.Audit, res.Reports = v.Risk, v.Audit, reports
	if err == nil && v.Risk == audit.RiskHigh.String() {
		res.addWarning(fmt.Sprintf("warning: %s: the audit rates this change high risk; it cannot be published while the audit is on (see `skillgit review`)", snap.skill.Name))
	}
	return err
}

// run audits items under the policy committed in policyFrom, unless the skip switch
// is on, and sums them up for the trailers.
func (a actAudit) run(policyFrom gitstore.Hash, items []auditrun.Item, res *Result) (auditrun.Verdict, []audit.SkillReport, error) {
	ar := a.r.AuditRunner()
	cfg, _, err := ar.ConfigAt(policyFrom, gitstore.ShortRef(a.r.branch))
	if err != nil {
		return auditrun.Verdict{}, nil, err
	}
	if skip, warn := policy.AuditSkipped(cfg, a.o.getenv); skip {
		res.addWarning(warn)
		return auditrun.SkippedVerdict, nil, nil
	}
	policy, err := ar.PolicyAt(policyFrom, gitstore.ShortRef(a.r.branch))
	if err != nil {
		return auditrun.Verdict{}, nil, err
	}
	reports, err := ar.Auditor(policy).Run(items)
	if err != nil {
		return auditrun.Verdict{}, nil, err
	}
	findings := 0
	for _, sr := range reports {
		findings += len(sr.Report.Findings)
	}
	return auditrun.VerdictOf(reports, policy.FailOn, findings), reports, nil
}

// into audits what an action writes under the publish branch's policy and records the
// verdict in res; nothing to audit (a deletion) is low risk. It reports whether the audit
// rates the change high risk.
func (a actAudit) into(items []auditrun.Item, res *Result) (bool, error) {
	v := auditrun.Verdict{Risk: audit.RiskLow.String(), Audit: auditrun.VerdictSummary(audit.VerdictPass, 0)}
	if len(items) > 0 {
		var err error
		if v, res.Reports, err = a.run(a.r.tip, items, res); err != nil {
			return false, err
		}
	}
	res.Risk, res.Audit = v.Risk, v.Audit
	return v.Risk == audit.RiskHigh.String(), nil
}
