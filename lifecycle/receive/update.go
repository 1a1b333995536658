package receive

import (
	"fmt"
	"slices"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// maxProtectedWalk bounds how many commits one push may add to a protected publish branch.
const maxProtectedWalk = 10000

// update says why update u of the publish branch is refused; empty when every commit it adds
// is one skillgit makes, each judged under the policy of the commit before it.
func (g *guard) update(u gitstore.RefUpdate) (string, error) {
	switch {
	case u.New.IsZero():
		return "deleting the publish branch is refused", nil
	case u.Old.IsZero():
		return "creating the publish branch again is refused", nil
	}
	added, err := firstParentsSince(g.r.Git(), u.Old, u.New)
	if err != nil || added == nil {
		return "the push rewrites the publish branch's history; it may only add commits to its first-parent line", err
	}
	rr, err := at(g.r, u.Old)
	if err != nil {
		return "", err
	}
	return g.firstRefused(added, func(h gitstore.Hash, c *object.Commit) (string, error) {
		why, err := g.madeBySkillgit(rr, h, c)
		if why == "" && err == nil {
			rr, err = at(g.r, h)
		}
		return why, err
	})
}

// firstRefused judges the commits added, oldest first, with judge, and says why the first
// one it refuses is refused, naming that commit; empty when it refuses none.
func (g *guard) firstRefused(added []gitstore.Hash, judge func(gitstore.Hash, *object.Commit) (string, error)) (string, error) {
	for _, h := range added {
		c, err := g.r.Git().Objects().Commit(h)
		if err != nil {
			return "", err
		}
		why, err := judge(h, c)
		if err != nil || why != "" {
			return fmt.Sprintf("commit %s %s", ledger.Commit{Hash: h, C: c}.Label(72), why), err
		}
	}
	return "", nil
}

// at is r as if its publish branch stood at commit h, under the configuration h holds.
func at(r *lifecycle.Repo, h gitstore.Hash) (*lifecycle.Repo, error) {
	cfg, _, err := r.AuditRunner().ConfigAt(h, shortID(h))
	if err != nil {
		return nil, err
	}
	return lifecycle.RepoAt(r.Git(), r.Branch(), h, cfg, r.Dir())
}

// firstParentsSince lists the commits on the first-parent line from tip back to old, oldest
// first; nil when old is not on that line within maxProtectedWalk commits.
func firstParentsSince(git *gitstore.Repo, old, tip gitstore.Hash) ([]gitstore.Hash, error) {
	return firstParentsUntil(git, tip, func(h gitstore.Hash) (bool, error) { return h == old, nil })
}

// firstParentsUntil lists the commits on the first-parent line from tip back to the first one
// that stop accepts, that one left out, oldest first; nil when none is met within
// maxProtectedWalk commits or the line ends first.
func firstParentsUntil(git *gitstore.Repo, tip gitstore.Hash, stop func(gitstore.Hash) (bool, error)) ([]gitstore.Hash, error) {
	out := []gitstore.Hash{}
	h := tip
	for range maxProtectedWalk {
		done, err := stop(h)
		if err != nil || done {
			slices.Reverse(out)
			return out, err
		}
		c, err := git.Objects().Commit(h)
		if err != nil || len(c.ParentHashes) == 0 {
			return nil, err
		}
		out = append(out, h)
		h = c.ParentHashes[0]
	}
	return nil, nil
}
