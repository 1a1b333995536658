package receive

import (
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// riskUnknown is the risk of a publish whose audit was skipped, which the approvals policy
// may ask more approvals for.
const riskUnknown = "unknown"

// madeBySkillgit says why commit h, added on top of rr's publish branch, is not what skillgit
// makes; empty when it is. The ledger says what the commit is: a publish it has verified is
// then checked against the branch's policy, and a rollback it has verified needs nothing more.
func (g *guard) madeBySkillgit(rr *lifecycle.Repo, h gitstore.Hash, c *object.Commit) (string, error) {
	st, err := rr.Book().Ledger.Step(h)
	if err != nil {
		return "", err
	}
	ci := ledger.Commit{Hash: h, C: c, Claims: ledger.ParseClaims(c.Message)}
	switch {
	case st.Kind == ledger.KindPublish && st.Via == "skillgit":
		return g.checkPublishMerge(rr, ci)
	case st.Kind == ledger.KindRollback:
		return "", nil
	case st.Unverified != "":
		return fmt.Sprintf("claims to %s but %s; %s", claimed(st), st.Unverified, protectAdvice), nil
	}
	return "is not the publish of an approved candidate, an approved policy change or a rollback; " + protectAdvice, nil
}

// claimed names what a step's commit claims to be, for messages.
func claimed(st *ledger.Step) string {
	switch {
	case st.Claim == ledger.ActRollback || (st.Claim == "" && len(st.Commit.C.ParentHashes) == 1):
		return "be a rollback"
	case st.Claim != "":
		return "be a " + st.Claim
	}
	return "publish a candidate"
}

// checkPublishMerge says why a publish merge is not one skillgit would make on rr's publish
// branch: the candidate it merges must be in scope, merged exactly, approved by people other
// than its ledger.Authors under the branch's policy, and pass the audit.
func (g *guard) checkPublishMerge(rr *lifecycle.Repo, ci ledger.Commit) (string, error) {
	id := ci.Claims.Get(ledger.KeyCandidate)
	if ledger.CheckID(id) != nil {
		return "names no candidate it publishes; " + protectAdvice, nil
	}
	ch, err := ledger.LoadChain(ledger.StoreOf(rr.Git()), id, lifecycle.CandidatePrefix+id, ci.C.ParentHashes[1])
	if err != nil {
		return fmt.Sprintf("merges a branch that is not candidate %s (%v); %s", id, err, protectAdvice), nil
	}
	plan, why, err := rr.PlanPublish(ch, ci)
	if why != "" || err != nil {
		return why, err
	}
	return g.approvedAtPublish(rr, plan)
}

// approvedAtPublish says why a planned publish would not pass: its audit under rr's policy,
// or its approvals.
func (g *guard) approvedAtPublish(rr *lifecycle.Repo, plan *lifecycle.PublishPlan) (string, error) {
	c, err := plan.Candidate()
	if err != nil {
		return "", err
	}
	items, err := plan.AuditItems(c)
	if errors.Is(err, lifecycle.ErrRefused) {
		return err.Error(), nil
	}
	if err != nil {
		return "", err
	}
	run, err := rr.AuditRunner().AuditAt(rr.Tip(), items, g.getenv)
	if err != nil {
		return "", err
	}
	c.Risk = audit.Overall(run.Reports).String()
	if run.Skipped {
		c.Risk = riskUnknown
	}
	if ok, why := ledger.ApprovedEnough(rr.Config(), c, c.Writers); !ok {
		return fmt.Sprintf("publishes candidate %s, which is not approved: %s; `skillgit approve %s` records an approval", c.ID, why, c.ID), nil
	}
	return "", nil
}
