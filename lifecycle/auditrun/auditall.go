package auditrun

import (
	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/gitstore"
)

// wholeFolder is an audit of every skill of one skills folder. Its result depends only on the
// folder's tree, the policy and the ruleset, so it is cached whole: a repeat audit of an
// unchanged folder reads one cache entry, without listing the skills or reading one entry per
// skill.
type wholeFolder struct {
	// tree is the skills folder's tree object id; zero when the commit has none.
	tree gitstore.Hash
	// path is where the folder is in the repository, such as "skills".
	path string
	// list lists the skill folders to audit when the whole result is not cached.
	list func() ([]Item, error)
}

// reports audits the plan's skills, from the whole-result cache when the plan is a whole
// skills folder and the auditor has a cache.
func (p *auditPlan) reports(a *Auditor) ([]audit.SkillReport, error) {
	w := p.whole
	if w == nil {
		return a.Run(p.items)
	}
	cacheable := a.Cache != nil && !w.tree.IsZero()
	if cacheable {
		if reports, ok := a.Cache.GetAll(w.tree.String(), w.path, a.policyHash()); ok {
			return reports, nil
		}
		if reports, ok, err := w.since(a); ok || err != nil {
			return reports, err
		}
	}
	items, err := w.list()
	if err != nil {
		return nil, err
	}
	reports, err := a.Run(items)
	if err == nil && cacheable {
		// A result that cannot be stored is only a later cache miss.
		_ = a.Cache.PutAll(w.tree.String(), w.path, a.policyHash(), reports)
	}
	return reports, err
}
