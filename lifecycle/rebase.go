package lifecycle

import (
	"fmt"
	"strings"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// Rebase brings a candidate up to date with the publish branch: a commit on the candidate
// whose second parent is the branch's tip and whose tree is the three-way merge of the two.
// When both changed the same file of the skill it refuses: the candidate must be revised.
// A rebase that changes the skill's folder voids earlier approvals. With approvals.signed,
// the commit is signed like an approval: a rebase that changes the folder writes content.
func (r *Repo) Rebase(id string, o ActOptions) (*Result, error) {
	t, warn, ch, c, err := r.actOn(id, o)
	if err != nil {
		return nil, err
	}
	id = ch.ID // the id of the candidate a skill name named
	sign, err := t.signer(id, "a rebase")
	if err != nil {
		return nil, err
	}
	base, merged, err := newPlanner(r).chainBase(ch)
	if err != nil {
		return nil, err
	}
	if base == r.Tip {
		return nil, fmt.Errorf("%s: already up to date with %s", id, short(r.Branch))
	}
	baseTree, err := newPlanner(r).rebaseBase(ch, base, merged)
	if err != nil {
		return nil, err
	}
	tree, conflicts, err := r.Git.MergeTrees(baseTree, ch.Last().C.TreeHash, r.Tree)
	if err != nil {
		return nil, err
	}
	if len(conflicts) > 0 {
		return nil, fmt.Errorf("%s: %w: both the candidate and %s changed %s; revise the candidate from a folder that includes the published changes",
			c.Skill, ErrConflict, short(r.Branch), strings.Join(conflicts, ", "))
	}
	res := &Result{Action: actRebase, ID: id, Branch: short(ch.Ref), Skill: c.Skill, Change: c.Change}
	res.addWarning(warn)
	if err := r.auditRebased(ch, c, tree, res, o); err != nil {
		return nil, err
	}
	ts := trailerList{}.add(keyAction, actRebase).add(keySkill, c.Skill).add(keyCandidate, id).
		add(keyBase, r.Tip.String()).add(keyRisk, res.Risk).add(keyAudit, res.Audit)
	subject := fmt.Sprintf("rebase: %s (candidate %s) onto %s", c.Skill, id, short(r.Branch))
	h, err := t.commit(tree, ts.message(subject, "", o), sign, ch.Tip, r.Tip)
	if err != nil {
		return nil, err
	}
	if err := t.moveCandidate(ch, h, actRebase); err != nil {
		return nil, fmt.Errorf("%s: the candidate changed while you rebased it; try again: %w", id, err)
	}
	res.Commit = h.String()
	return r.withState(res, c)
}

// rebaseBase is the base of the three-way merge a rebase makes: the tree of the
// candidate's recorded base. A branch that took the publish branch in with a plain git merge
// takes the rest from git's merge base, so what it merged is not merged again, but its
// declared paths still from the recorded base: a merge that kept the candidate's folder as it
// was (`git merge -s ours`) does not count as having taken in the publish branch's changes.
func (p planner) rebaseBase(ch *ledger.Chain, base gitstore.Hash, merged bool) (gitstore.Hash, error) {
	r := p.r
	anchor, err := p.candidateBaseTree(ch, base, r.Tip, r.Tree)
	if err != nil || !merged {
		return anchor, err
	}
	gitBase, err := mergeBaseTree(r.Git, r.Tip, ch.Tip)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	return p.withDeclared(ch, gitBase, anchor)
}

// auditRebased audits the candidate's folder as the rebase leaves it.
func (r *Repo) auditRebased(ch *ledger.Chain, c *Candidate, tree gitstore.Hash, res *Result, o ActOptions) error {
	folder, err := r.FolderAt(tree, c.Path)
	if err != nil || folder.IsZero() {
		res.Risk, res.Audit = c.Risk, c.Audit
		return err
	}
	old, err := r.FolderAt(r.Tree, c.Path)
	if err != nil {
		return err
	}
	v, reports, err := r.auditTrees(r.Tip, []auditrun.Item{{Name: c.Skill, Path: c.Path, Tree: folder, Base: old, BaseLabel: short(r.Branch)}}, o, res)
	res.Risk, res.Audit, res.Reports = v.Risk, v.Audit, reports
	return err
}
