package lifecycle

import (
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/skilltree"
)

// FileAt reads a regular file of tree, at most limit bytes; ok is false when there is none.
func (r *Repo) FileAt(tree gitstore.Hash, file string, limit int64, label string) ([]byte, bool, error) {
	return r.git.Objects().FileAt(tree, file, limit, label)
}

// treesOf compares the root trees of r under the skills folder of its configuration.
func treesOf(r *Repo) skilltree.Trees { return skilltree.New(r.git, r.cfg.SkillsDir) }

// treeOf is the root tree of commit h.
func (r *Repo) treeOf(h gitstore.Hash) (gitstore.Hash, error) {
	c, err := r.git.Objects().Commit(h)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	return c.TreeHash, nil
}
