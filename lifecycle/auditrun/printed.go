package auditrun

import (
	"io"

	"github.com/skillgit/skillgit/audit"
)

// print audits and prints the report as pr asks, and sets res's reports and verdict. The report
// of a whole skills folder is copied from the cache when the cache holds it printed the same
// way, and stored there when not.
func (p *auditPlan) print(a *Auditor, pr *Print, res *Result) error {
	o := audit.WriteOptions{Color: pr.Color, Version: pr.Version, FailOn: res.FailOn, Title: res.Title, Custom: p.policy.Custom}
	key, cacheable := p.printKey(a, pr.Format, o)
	if cacheable {
		v, ok, err := a.Cache.Printed().Copy(pr.Out, key)
		if !ok {
			v, ok, err = p.whole.printSince(a, pr.Out, key)
		}
		if ok || err != nil {
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
		res.Verdict, err = a.Cache.Printed().Write(pr.Out, key, reports)
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

// printSince prints the folder's text report from the one the cache holds of an earlier
// version of it, auditing only the skills that changed since. ok is false, and nothing is
// written, when the cache holds none, the versions cannot be compared or too much changed.
func (w *wholeFolder) printSince(a *Auditor, out io.Writer, key audit.PrintKey) (v audit.Verdict, ok bool, err error) {
	prev, ok := a.Cache.Printed().Latest(key)
	if !ok {
		return v, false, nil
	}
	drop, scanned, ok, err := w.changedSince(a, prev.Root)
	if !ok || err != nil {
		return v, ok, err
	}
	return a.Cache.Printed().Since(out, key, prev, drop, scanned)
}
