package receive

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/skilltree"
)

// canary says why update u of the canary channel is refused on a protected server; empty
// when every commit it adds is what skillgit makes there: a canary publish of a candidate
// that passes as a publish would, or a merge that brings the publish branch (at mainTip, as
// the push leaves it) into canary. A new canary channel starts from the publish branch's
// history.
func (g *guard) canary(u gitstore.RefUpdate, mainTip gitstore.Hash) (string, error) {
	if u.New.IsZero() {
		return "deleting the canary channel is refused", nil
	}
	added, err := g.canaryAdded(u, mainTip)
	if err != nil || added == nil {
		return "the push rewrites the canary channel's history; it may only add commits to its first-parent line", err
	}
	return g.firstRefused(added, func(h gitstore.Hash, c *object.Commit) (string, error) { return g.canaryCommit(h, c, mainTip) })
}

// canaryAdded lists the commits u adds to canary, oldest first: back to its old tip, or for a
// new channel, back to the first commit on the publish branch's history; nil when the old tip
// is not on the first-parent line.
func (g *guard) canaryAdded(u gitstore.RefUpdate, mainTip gitstore.Hash) ([]gitstore.Hash, error) {
	if !u.Old.IsZero() {
		return firstParentsSince(g.r.Git(), u.Old, u.New)
	}
	return firstParentsUntil(g.r.Git(), u.New, func(h gitstore.Hash) (bool, error) { return g.r.Git().History().IsAncestor(h, mainTip) })
}

// canaryCommit says why commit h, added to canary, is not what skillgit makes there. A
// canary publish is judged on top of its first parent, under the publish branch's policy.
func (g *guard) canaryCommit(h gitstore.Hash, c *object.Commit, mainTip gitstore.Hash) (string, error) {
	ci := ledger.Commit{Hash: h, C: c, Claims: ledger.ParseClaims(c.Message)}
	notCanary := "is not a canary publish of an approved candidate or a merge of " + gitstore.ShortRef(g.r.Branch()) + "; " + protectAdvice
	if len(c.ParentHashes) != 2 || ci.Claims.Get(ledger.KeyChannel) != "canary" {
		return notCanary, nil
	}
	rr, err := lifecycle.RepoAt(g.r.Git(), g.r.Branch(), c.ParentHashes[0], g.r.Config(), g.r.Dir())
	if err != nil {
		return "", err
	}
	switch ci.Claims.Get(ledger.KeyAction) {
	case ledger.ActPublish:
		st, err := g.r.Book().Ledger.Step(h)
		if err != nil {
			return "", err
		}
		if st.Kind != ledger.KindPublish {
			return fmt.Sprintf("claims to be a publish but %s; %s", st.Unverified, protectAdvice), nil
		}
		return g.checkPublishMerge(rr, ci)
	case ledger.ActSync:
		return checkCatchUp(rr, c, mainTip)
	}
	return notCanary, nil
}

// checkCatchUp says why a merge into canary, on top of rr's tip, is not the one skillgit
// makes to bring the publish branch in: its second parent must be on the publish branch, and
// its tree the clean merge of both.
func checkCatchUp(rr *lifecycle.Repo, c *object.Commit, mainTip gitstore.Hash) (string, error) {
	from := c.ParentHashes[1]
	if on, err := rr.Git().History().IsAncestor(from, mainTip); err != nil || !on {
		return fmt.Sprintf("merges %s, which is not on %s", shortID(from), gitstore.ShortRef(rr.Branch())), err
	}
	fc, err := rr.Git().Objects().Commit(from)
	if err != nil {
		return "", err
	}
	fromTree := fc.TreeHash
	baseTree, err := skilltree.MergeBaseTree(rr.Git(), rr.Tip(), from)
	if err != nil {
		return "", err
	}
	tree, conflicts, err := rr.Git().Writes().MergeTrees(baseTree, rr.Tree(), fromTree)
	if err != nil {
		return "", err
	}
	if len(conflicts) > 0 || tree != c.TreeHash {
		return fmt.Sprintf("does not hold exactly the merge of %s into canary", gitstore.ShortRef(rr.Branch())), nil
	}
	return "", nil
}
