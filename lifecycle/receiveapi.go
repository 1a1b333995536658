package lifecycle

import (
	"errors"
	"fmt"

	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// PublishPlan is the publish skillgit makes of a candidate on top of a commit of the publish
// branch or canary, for a check that holds a publish merge made elsewhere against it.
type PublishPlan struct {
	r  *Repo
	ch *ledger.Chain
	m  *merge
}

// PlanPublish plans the publish that the publish merge ci records, of candidate ch onto r's
// tip (on canary when ci says so, under the name of its Skillgit-Published-As trailer when it
// has one), and says why ci is not that publish: the candidate's folder breaks the path
// policy, skillgit would refuse the publish as stale or clashing, the candidate changes paths
// outside its scope, or ci does not hold exactly the tree the publish makes. The plan is set
// only when why is empty.
func (r *Repo) PlanPublish(ch *ledger.Chain, ci ledger.Commit) (*PublishPlan, string, error) {
	if err := r.checkCandidatePaths(ch); errors.Is(err, ErrRefused) {
		return nil, fmt.Sprintf("publishes candidate %s, which the path policy refuses: %v", ch.ID, err), nil
	} else if err != nil {
		return nil, "", err
	}
	m, why, err := newPlanner(r).published(ch, ci)
	if why != "" || err != nil {
		return nil, why, err
	}
	switch {
	case !m.scope.InScope():
		return nil, fmt.Sprintf("publishes candidate %s, which changes %s outside its scope", ch.ID, namePaths(m.scope.Outside)), nil
	case len(m.conflicts) > 0 || m.tree != ci.C.TreeHash:
		return nil, fmt.Sprintf("does not hold exactly what publishing candidate %s makes; publish it with `skillgit publish %s`", ch.ID, ch.ID), nil
	}
	return &PublishPlan{r: r, ch: ch, m: m}, "", nil
}

// Candidate is the candidate the plan publishes, as its approvals stand, at the path the
// publish puts its folder: under another name, that is where its approvals' acceptances
// apply.
func (p *PublishPlan) Candidate() (*ledger.Candidate, error) {
	c, err := p.r.book().CandidateOf(p.ch, false)
	if err != nil {
		return nil, err
	}
	if p.m.renamedPath != "" {
		c.Path = p.m.renamedPath
	}
	return c, nil
}

// AuditItems are the skills the publish's audit covers: each folder it takes from the
// candidate, c's own with the acceptances of c's approvals, and, for a policy candidate whose
// merged configuration moves skills_dir, every skill of the new folder. A policy candidate
// skillgit refuses to publish gives an error that wraps ErrRefused.
func (p *PublishPlan) AuditItems(c *ledger.Candidate) ([]auditrun.Item, error) {
	items := newPlanner(p.r).items(p.m.changes, c, p.ch)
	if !p.ch.IsPolicy() {
		return items, nil
	}
	moved, err := newPlanner(p.r).checkPolicy(p.m, p.ch.ID)
	if err != nil {
		return nil, err
	}
	return append(items, moved...), nil
}
