package agentsync

import (
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/lifecycle"
)

// auditPlans audits every skill the plans will write, each version once, under the policy of
// the publish branch, unless the skip switch is on. A skill whose risk reaches fail_on
// refuses the whole sync before anything is written.
func (r *repo) auditPlans(src *source, plans []*catalog.SyncPlan, req Request, rep *Report) error {
	items := auditItems(plans)
	if len(items) == 0 {
		return nil
	}
	if err := src.readable(items); err != nil {
		return err
	}
	if skip, warn := lifecycle.AuditSkipped(r.Config, req.Getenv); skip {
		rep.Warnings = append(rep.Warnings, warn)
		return nil
	}
	policy, err := r.PolicyAt(r.Tip, strings.TrimPrefix(r.Branch, "refs/heads/"))
	if err != nil {
		return err
	}
	a := &lifecycle.Auditor{Git: r.Git, Policy: policy, Cache: r.AuditCache()}
	reports, err := a.Run(items)
	if err != nil {
		return err
	}
	var blocked []string
	for _, sr := range reports {
		if sr.Report != nil && audit.Judge([]audit.SkillReport{sr}, policy.FailOn) == audit.VerdictBlocked {
			blocked = append(blocked, fmt.Sprintf("%s (risk %s)", sr.Path, sr.Report.Risk))
		}
	}
	if len(blocked) > 0 {
		return fmt.Errorf("%w: the audit blocks %s at fail_on %s on %s; nothing was installed. Run `skillgit audit --rev %s` for the findings, then roll the skill back or accept the findings in the allow list",
			lifecycle.ErrRefused, strings.Join(blocked, ", "), policy.FailOn, src.channel, src.channel)
	}
	return nil
}

// auditItems lists the skill versions the plans write, once each.
func auditItems(plans []*catalog.SyncPlan) []lifecycle.AuditItem {
	seen := map[string]bool{}
	var items []lifecycle.AuditItem
	for _, p := range plans {
		for _, a := range p.Changes() {
			s, ok := a.Source()
			if !ok || seen[s.Hash] {
				continue
			}
			seen[s.Hash] = true
			items = append(items, lifecycle.AuditItem{Name: s.Name, Path: s.Dir, Tree: plumbing.NewHash(s.Hash)})
		}
	}
	return items
}
