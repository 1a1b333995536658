package lifecycle

import (
	"github.com/skillgit/skillgit/gitstore"
)

// MoveBranch moves the publish branch from old to h by compare-and-swap, with its files when
// it is checked out, and reloads the repository's view of it.
func (r *Repo) MoveBranch(old, h gitstore.Hash) error {
	oc, err := r.git.Objects().Commit(old)
	if err != nil {
		return err
	}
	nc, err := r.git.Objects().Commit(h)
	if err != nil {
		return err
	}
	paths, err := treesOf(r).ChangedPaths(oc.TreeHash, nc.TreeHash)
	if err != nil {
		return err
	}
	if err := (&tx{r: r}).move(r.branch, old, h, oc.TreeHash, nc.TreeHash, paths); err != nil {
		return err
	}
	return r.Reload()
}
