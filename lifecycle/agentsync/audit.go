package agentsync

import (
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/policy"
	"github.com/skillgit/skillgit/targetdir"
)

// auditPlans audits every skill the plans will write, each version once, under the policy of
// the publish branch, unless the skip switch is on. A skill git cannot read, or whose risk
// reaches fail_on, is held: the plans leave it as installed, and the others go ahead.
func (r *repo) auditPlans(src *source, plans []*targetdir.Folder, req Request, rep *Report) error {
	defer src.holdIn(plans, rep)
	items := src.readable(r.Git().Objects(), auditItems(plans))
	if len(items) == 0 {
		return nil
	}
	if skip, warn := policy.AuditSkipped(r.Config(), req.Getenv); skip {
		rep.Warnings = append(rep.Warnings, warn)
		return nil
	}
	ar := r.AuditRunner()
	policy, err := ar.PolicyAt(r.Tip(), strings.TrimPrefix(r.Branch(), "refs/heads/"))
	if err != nil {
		return err
	}
	reports, errs := ar.Auditor(policy).RunEach(items)
	for i, sr := range reports {
		if err := errs[i]; err != nil {
			// A stored object whose bytes are damaged holds its skill, as a missing one does.
			if !gitstore.IsObjectError(err) {
				return err
			}
			src.hold(items[i].Path, unreadableSkill(items[i].Path, err), false)
			continue
		}
		if sr.Report != nil && audit.Judge([]audit.SkillReport{sr}, policy.FailOn) == audit.VerdictBlocked {
			src.hold(sr.Path, fmt.Errorf("%w: the audit rates %s risk %s, at or above fail_on %s on %s; it was left as installed. Run `skillgit audit --rev %s` for the findings, then roll the skill back or accept the findings in the allow list",
				lifecycle.ErrRefused, sr.Path, sr.Report.Risk, policy.FailOn, src.channel, src.channel), true)
		}
	}
	return nil
}

// auditItems lists the skill versions the plans write, once each.
func auditItems(plans []*targetdir.Folder) []auditrun.Item {
	seen := map[string]bool{}
	var items []auditrun.Item
	for _, p := range plans {
		for _, a := range p.Changes() {
			s, ok := a.Source()
			if !ok || seen[s.Hash] {
				continue
			}
			seen[s.Hash] = true
			items = append(items, auditrun.Item{Name: s.Name, Path: s.Dir, Tree: plumbing.NewHash(s.Hash)})
		}
	}
	return items
}
