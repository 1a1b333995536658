package auditrun

import (
	"github.com/skillgit/skillgit/audit"
)

// print audits and prints the report as pr asks, and sets res's reports and verdict. The report
// of a whole skills folder is copied from the cache when the cache holds it printed the same
// way, and stored there when not.
func (p *auditPlan) print(a *Auditor, pr *Print, res *Result) error {
	o := audit.WriteOptions{Color: pr.Color, Version: pr.Version, FailOn: res.FailOn, Title: res.Title, Custom: p.policy.Custom}
	key, cacheable := p.printKey(a, pr.Format, o)
	if cacheable {
		v, ok, err := a.Cache.CopyPrinted(pr.Out, key)
		if ok {
			res.Verdict = v
			return err
		}
	}
	reports, err := p.reports(a)
	if err != nil {
		return err
	}
	res.Reports = reports
	if cacheable {
		res.Verdict, err = a.Cache.WritePrinted(pr.Out, key, reports)
		return err
	}
	res.Verdict = audit.Judge(reports, res.FailOn)
	return audit.Write(pr.Out, pr.Format, reports, o)
}

// printKey returns the key of the plan's printed report in format f with options o; false when
// the plan is not a whole skills folder, or the audit has no cache.
func (p *auditPlan) printKey(a *Auditor, f audit.Format, o audit.WriteOptions) (audit.PrintKey, bool) {
	w := p.whole
	if w == nil || a.Cache == nil || w.tree.IsZero() {
		return audit.PrintKey{}, false
	}
	return audit.PrintKey{Root: w.tree.String(), Folder: w.path, Policy: a.policyHash(), Format: f, Options: o}, true
}
