package lifecycle

import (
	"fmt"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/skilltree"
)

// planner computes what publishing a candidate would merge into a channel, as the repository
// r stands: the candidate's base and scope, the folders it takes, the names they give, the
// policy it changes and the audit items of it all. Publish lands its plan, review shows it,
// and the server's check compares a pushed publish with it.
type planner struct{ r *Repo }

// newPlanner plans publishes on r as its publish branch stands.
func newPlanner(r *Repo) planner { return planner{r: r} }

// merge is a computed publish: the candidate's scope, the folders it changes and the
// resulting tree.
type merge struct {
	scope   *Scope
	changes []skilltree.Change // base = the channel's folder, head = the candidate's
	// conflicts are folders the channel changed too since the merge base; base = the
	// channel's folder, head = the candidate's.
	conflicts []skilltree.Change
	startTree gitstore.Hash
	tree      gitstore.Hash
	// renamedPath is where a publish under another name (--as) puts the candidate's folder.
	renamedPath string
}

func (m *merge) paths() []string {
	out := make([]string, len(m.changes))
	for i, f := range m.changes {
		out[i] = f.Path
	}
	return out
}

// plan computes what publishing the candidate onto start would merge, without judging
// it: each folder of its scope that it changed since the merge base is taken from the
// candidate, unless start changed it too (a conflict). Review shows this plan; publish lands
// it.
func (p planner) plan(ch *ledger.Chain, start gitstore.Hash) (*merge, error) {
	r := p.r
	sc, err := r.git.Objects().Commit(start)
	if err != nil {
		return nil, err
	}
	scope, err := p.scope(ch, start, sc.TreeHash)
	if err != nil {
		return nil, err
	}
	m := &merge{scope: scope, startTree: sc.TreeHash, tree: sc.TreeHash}
	for _, f := range scope.folders {
		if err := p.mergeFolder(m, f); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// prepare plans the publish of the candidate onto start and refuses a candidate that
// changes anything outside its scope, conflicts with target, or changes nothing.
func (p planner) prepare(ch *ledger.Chain, start gitstore.Hash, target string) (*merge, error) {
	m, err := p.plan(ch, start)
	if err != nil {
		return nil, err
	}
	if err := m.scope.refuse(ch.ID, "publish"); err != nil {
		return nil, err
	}
	if len(m.conflicts) > 0 {
		f := m.conflicts[0]
		return nil, fmt.Errorf("%s: %w: %s changed %s since candidate %s was made; run `skillgit rebase %s` to bring the candidate up to date, or revise it",
			f.Name(), ErrConflict, gitstore.ShortRef(target), f.Path, ch.ID, ch.ID)
	}
	if len(m.changes) == 0 {
		return nil, fmt.Errorf("%s: nothing to publish: %s already holds the candidate's skill folders as they are", ch.ID, gitstore.ShortRef(target))
	}
	if err := treesOf(p.r).Clash(m.startTree, m.tree, m.changes, target); err != nil {
		return nil, err
	}
	return m, nil
}

// mergeFolder takes folder f from the candidate into m, or records a conflict when the
// channel changed it too: since the merge base, or since the candidate's recorded base.
func (p planner) mergeFolder(m *merge, f skilltree.Change) error {
	r := p.r
	cur, err := pathHash(r.book(), m.startTree, f)
	switch {
	case err != nil:
		return err
	case cur == f.Head:
		return nil
	}
	stale := cur != f.Base
	if !stale && !m.scope.anchor.IsZero() {
		was, err := pathHash(r.book(), m.scope.anchor, f)
		if err != nil {
			return err
		}
		stale = cur != was
	}
	if stale {
		m.conflicts = append(m.conflicts, skilltree.Change{Path: f.Path, Base: cur, Head: f.Head, Mode: f.Mode})
		return nil
	}
	if m.tree, err = r.git.Writes().ReplacePath(m.tree, f.Path, f.Entry()); err != nil {
		return err
	}
	m.changes = append(m.changes, skilltree.Change{Path: f.Path, Base: cur, Head: f.Head, Mode: f.Mode})
	return nil
}

// candidateBaseTree is the tree of base, the commit the candidate was built on or last
// rebased onto, while start descends from it; checking that costs only the commits made
// since, where a full merge-base search may have to paint much of the history. When start
// does not descend from it (the history was rewritten), it is the tree of git's merge base.
func (p planner) candidateBaseTree(ch *ledger.Chain, base, start, startTree gitstore.Hash) (gitstore.Hash, error) {
	r := p.r
	if base == start {
		return startTree, nil
	}
	if ok, err := r.git.History().IsAncestor(base, start); err != nil {
		return gitstore.ZeroHash, err
	} else if !ok {
		return skilltree.MergeBaseTree(r.git, start, ch.Tip)
	}
	c, err := r.git.Objects().Commit(base)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	return c.TreeHash, nil
}

// items are the audit items of the folders a merge takes from a candidate: each folder
// as the candidate has it, compared with the channel's, with the acceptances of the
// candidate's approvals on its own folder.
func (p planner) items(folders []skilltree.Change, c *Candidate, ch *ledger.Chain) []auditrun.Item {
	r := p.r
	var items []auditrun.Item
	for _, f := range folders {
		if !f.Head.IsZero() && treesOf(r).IsSkillPath(f.Path) {
			it := auditrun.Item{Name: f.Name(), Path: f.Path, Tree: f.Head, Base: f.Base, BaseLabel: gitstore.ShortRef(r.branch)}
			if f.Path == c.Path {
				it.Accepted = acceptedAllows(c, c.Writers, r.cfg.Approvals.Signed)
				if c.Skill != "" && c.Skill != it.Name {
					it.FindingsAs = c.Skill // published under another name (--as)
				}
			}
			items = append(items, it)
		}
	}
	return items
}
