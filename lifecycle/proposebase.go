package lifecycle

import (
	"fmt"

	"github.com/skillgit/skillgit/gitstore"
)

// onBase runs step with the repository pointed at the commit o.Base of the publish branch in
// place of its tip, and points it back after; a zero base runs step as it is. A base that is
// not on the publish branch is refused.
func (p *proposal) onBase(step func() (*snapshot, error)) (*snapshot, error) {
	r, base := p.t.r, p.o.Base
	if base.IsZero() || base == r.tip {
		return step()
	}
	ok, err := r.git.History().IsAncestor(base, r.tip)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%s: not a commit of %s; a candidate is built on a published version", base, gitstore.ShortRef(r.branch))
	}
	c, err := r.git.Objects().Commit(base)
	if err != nil {
		return nil, err
	}
	tip, tree := r.tip, r.tree
	r.tip, r.tree = base, c.TreeHash
	defer func() { r.tip, r.tree = tip, tree }()
	return step()
}

// PublishedCommitOf finds the commit of the publish branch whose folder dir was tree: it
// walks the branch's first-parent history back from its tip, at most limit commits, and
// returns the newest such commit, or the zero hash when none is found.
func (r *Repo) PublishedCommitOf(dir string, tree gitstore.Hash, limit int) (gitstore.Hash, error) {
	h := r.tip
	for i := 0; i < limit && !h.IsZero(); i++ {
		c, err := r.git.Objects().Commit(h)
		if err != nil {
			return gitstore.ZeroHash, err
		}
		e, ok, err := r.git.Objects().EntryAt(c.TreeHash, dir)
		if err != nil {
			return gitstore.ZeroHash, err
		}
		if ok && e.Hash == tree {
			return h, nil
		}
		if len(c.ParentHashes) == 0 {
			break
		}
		h = c.ParentHashes[0]
	}
	return gitstore.ZeroHash, nil
}
