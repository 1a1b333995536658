package lifecycle

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// protectCanary says why update u of the canary channel is refused on a protected server;
// empty when every commit it adds is what skillgit makes there: a canary publish of a
// candidate that passes as a publish would, or a merge that brings the publish branch (at
// mainTip, as the push leaves it) into canary. A new canary channel starts from the publish
// branch's history.
func (r *Repo) protectCanary(u gitstore.RefUpdate, mainTip gitstore.Hash, getenv func(string) string) (string, error) {
	if u.New.IsZero() {
		return "deleting the canary channel is refused", nil
	}
	added, err := r.canaryAdded(u, mainTip)
	if err != nil || added == nil {
		return "the push rewrites the canary channel's history; it may only add commits to its first-parent line", err
	}
	for _, h := range added {
		c, err := r.Git.Commit(h)
		if err != nil {
			return "", err
		}
		why, err := r.canaryCommit(h, c, mainTip, getenv)
		if err != nil || why != "" {
			subject, _, _ := ledger.CutSubject(c.Message)
			return fmt.Sprintf("commit %s (%q) %s", shortID(h.String()), bounded(subject, 72), why), err
		}
	}
	return "", nil
}

// canaryAdded lists the commits u adds to canary, oldest first: back to its old tip, or for a
// new channel, back to the first commit on the publish branch's history; nil when the old tip
// is not on the first-parent line.
func (r *Repo) canaryAdded(u gitstore.RefUpdate, mainTip gitstore.Hash) ([]gitstore.Hash, error) {
	if !u.Old.IsZero() {
		return r.firstParentsSince(u.Old, u.New)
	}
	return r.firstParentsUntil(u.New, func(h gitstore.Hash) (bool, error) { return r.Git.IsAncestor(h, mainTip) })
}

// canaryCommit says why commit h, added to canary, is not what skillgit makes there.
func (r *Repo) canaryCommit(h gitstore.Hash, c *object.Commit, mainTip gitstore.Hash, getenv func(string) string) (string, error) {
	ci := ledger.Commit{Hash: h, C: c, Claims: ledger.ParseClaims(c.Message)}
	if len(c.ParentHashes) != 2 || ci.Claims.Get(keyChannel) != "canary" {
		return "is not a canary publish of an approved candidate or a merge of " + short(r.Branch) + "; " + protectAdvice, nil
	}
	start, err := r.treeOf(c.ParentHashes[0])
	if err != nil {
		return "", err
	}
	rr := &Repo{Git: r.Git, Config: r.Config, Branch: r.Branch, Tip: c.ParentHashes[0], Tree: start, Dir: r.Dir}
	switch ci.Claims.Get(keyAction) {
	case actPublish:
		st, err := r.ledger().Step(h)
		if err != nil {
			return "", err
		}
		if st.Kind != ledger.KindPublish {
			return fmt.Sprintf("claims to be a publish but %s; %s", st.Unverified, protectAdvice), nil
		}
		return rr.checkPublishMerge(ci, getenv)
	case actSync:
		return rr.checkCatchUp(c, mainTip)
	}
	return "is not a canary publish of an approved candidate or a merge of " + short(r.Branch) + "; " + protectAdvice, nil
}

// checkCatchUp says why a merge into canary is not the one skillgit makes to bring the
// publish branch in: its second parent must be on the publish branch, and its tree the clean
// merge of both.
func (r *Repo) checkCatchUp(c *object.Commit, mainTip gitstore.Hash) (string, error) {
	from := c.ParentHashes[1]
	if on, err := r.Git.IsAncestor(from, mainTip); err != nil || !on {
		return fmt.Sprintf("merges %s, which is not on %s", shortID(from.String()), short(r.Branch)), err
	}
	fromTree, err := r.treeOf(from)
	if err != nil {
		return "", err
	}
	baseTree, err := mergeBaseTree(r.Git, r.Tip, from)
	if err != nil {
		return "", err
	}
	tree, conflicts, err := r.Git.MergeTrees(baseTree, r.Tree, fromTree)
	if err != nil {
		return "", err
	}
	if len(conflicts) > 0 || tree != c.TreeHash {
		return fmt.Sprintf("does not hold exactly the merge of %s into canary", short(r.Branch)), nil
	}
	return "", nil
}
