package lifecycle

import (
	"fmt"
	"strings"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/skilltree"
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
	rb := &rebase{t: t, o: o, ch: ch, c: c}
	sign, err := t.signer(ch.ID, "a rebase")
	if err != nil {
		return nil, err
	}
	tree, err := rb.merge()
	if err != nil {
		return nil, err
	}
	res := &Result{Action: actRebase, ID: ch.ID, Branch: gitstore.ShortRef(ch.Ref), Skill: c.Skill, Change: c.Change}
	res.addWarning(warn)
	if err := rb.audit(tree, res); err != nil {
		return nil, err
	}
	if err := rb.write(tree, res, sign); err != nil {
		return nil, err
	}
	return withState(r.book(), res)
}

// rebase is an open candidate being brought up to date with the publish branch.
type rebase struct {
	t  *tx
	o  ActOptions
	ch *ledger.Chain
	c  *Candidate
}

// merge is the tree of the rebase: the three-way merge of the candidate and the publish
// branch from the candidate's base. It refuses a candidate that is up to date already, and
// one whose changes conflict with the branch's.
func (rb *rebase) merge() (gitstore.Hash, error) {
	r, ch := rb.t.r, rb.ch
	p := newPlanner(r)
	base, merged, err := p.chainBase(ch)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	if base == r.tip {
		return gitstore.ZeroHash, fmt.Errorf("%s: already up to date with %s", ch.ID, gitstore.ShortRef(r.branch))
	}
	baseTree, err := p.rebaseBase(ch, base, merged)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	tree, conflicts, err := r.git.Writes().MergeTrees(baseTree, ch.Last().C.TreeHash, r.tree)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	if len(conflicts) > 0 {
		return gitstore.ZeroHash, fmt.Errorf("%s: %w: both the candidate and %s changed %s; revise the candidate from a folder that includes the published changes",
			rb.c.Skill, ErrConflict, gitstore.ShortRef(r.branch), strings.Join(conflicts, ", "))
	}
	return tree, nil
}

// write writes the rebase commit of tree, signed by sign when it is not nil, and moves the
// candidate's branch to it.
func (rb *rebase) write(tree gitstore.Hash, res *Result, sign signer) error {
	t, r, ch, c := rb.t, rb.t.r, rb.ch, rb.c
	ts := trailerList{}.add(keyAction, actRebase).add(keySkill, c.Skill).add(keyCandidate, ch.ID).
		add(keyBase, r.tip.String()).add(keyRisk, res.Risk).add(keyAudit, res.Audit)
	subject := fmt.Sprintf("rebase: %s (candidate %s) onto %s", c.Skill, ch.ID, gitstore.ShortRef(r.branch))
	h, err := t.commit(tree, ts.message(subject, "", rb.o), sign, ch.Tip, r.tip)
	if err != nil {
		return err
	}
	if err := t.moveCandidate(ch, h, actRebase); err != nil {
		return fmt.Errorf("%s: the candidate changed while you rebased it; try again: %w", ch.ID, err)
	}
	res.Commit = h.String()
	return nil
}

// audit audits the candidate's folder as the rebase leaves it in tree.
func (rb *rebase) audit(tree gitstore.Hash, res *Result) error {
	r, c := rb.t.r, rb.c
	folder, err := skilltree.FolderAt(r.git, tree, c.Path)
	if err != nil || folder.IsZero() {
		res.Risk, res.Audit = c.Risk, c.Audit
		return err
	}
	old, err := skilltree.FolderAt(r.git, r.tree, c.Path)
	if err != nil {
		return err
	}
	v, reports, err := (actAudit{r: r, o: rb.o}).run(r.tip, []auditrun.Item{{Name: c.Skill, Path: c.Path, Tree: folder, Base: old, BaseLabel: gitstore.ShortRef(r.branch)}}, res)
	res.Risk, res.Audit, res.Reports = v.Risk, v.Audit, reports
	return err
}

// rebaseBase is the base of the three-way merge a rebase makes: the tree of the
// candidate's recorded base. A branch that took the publish branch in with a plain git merge
// takes the rest from git's merge base, so what it merged is not merged again, but its
// declared paths still from the recorded base: a merge that kept the candidate's folder as it
// was (`git merge -s ours`) does not count as having taken in the publish branch's changes.
func (p planner) rebaseBase(ch *ledger.Chain, base gitstore.Hash, merged bool) (gitstore.Hash, error) {
	r := p.r
	anchor, err := p.candidateBaseTree(ch, base, r.tip, r.tree)
	if err != nil || !merged {
		return anchor, err
	}
	gitBase, err := skilltree.MergeBaseTree(r.git, r.tip, ch.Tip)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	return p.withDeclared(ch, gitBase, anchor)
}
