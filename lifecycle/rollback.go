package lifecycle

import (
	"fmt"
	"strings"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/skilltree"
)

// Rollback restores the skill folders a publish changed to what they were before it, as one
// commit on the publish branch that says, as git does, "This reverts commit <sha>." Name the
// skill to undo its latest publish still in effect (one no rollback has undone yet, so
// repeated rollbacks walk back), or the publish commit; with both, the commit must be a
// publish of that skill, and only that skill's folder is restored. A rollback itself cannot
// be undone this way: bringing back what it removed is a publish, which needs a candidate and
// its approvals. An unattended caller may roll back only what the mode would publish without a
// person.
func (r *Repo) Rollback(name, commit string, o ActOptions) (*Result, error) {
	if name == "" && commit == "" {
		return nil, fmt.Errorf("name a skill or give --commit SHA")
	}
	sig, warn, err := r.Actor(o)
	if err != nil {
		return nil, err
	}
	t := &tx{r: r, sig: sig}
	rb := &rollback{t: t, o: o, name: name, commit: commit}
	res, err := t.retry(rb.once)
	if err != nil {
		return nil, err
	}
	res.addWarning(warn)
	t.warnDanglingProfiles(res)
	t.done(res)
	return res, nil
}

// rollback undoes a publish on the publish branch: the latest of the skill name still in
// effect, or the publish commit names, or both.
type rollback struct {
	t            *tx
	o            ActOptions
	name, commit string
}

// once computes and lands the rollback on the current tip of the publish branch.
func (rb *rollback) once() (*Result, error) {
	pub, changes, err := rb.target()
	if err != nil {
		return nil, err
	}
	r := rb.t.r
	res := &Result{Action: actRollback, Skill: rb.name, ID: pub.Claims.Get(keyCandidate), Channel: gitstore.ShortRef(r.branch), Reverts: pub.Hash.String()}
	tree, items, err := rb.restoreAll(changes, pub, res)
	if err != nil {
		return nil, err
	}
	if err := rb.audit(items, res); err != nil {
		return nil, err
	}
	if err := rb.checkUnattended(changes, res); err != nil {
		return nil, err
	}
	m := &merge{changes: changes}
	h, err := rb.t.onBranch(tree, rollbackMessage(pub, changes, res, rb.o), m.paths())
	if err != nil {
		return nil, err
	}
	res.Commit = h.String()
	return res, nil
}

// target finds the publish to undo and the folders of it still in effect that the rollback
// restores.
func (rb *rollback) target() (ledger.Commit, []skilltree.Change, error) {
	pub, undone, err := rb.find()
	if err != nil {
		return ledger.Commit{}, nil, err
	}
	if err := rb.checkPublishOf(pub); err != nil {
		return ledger.Commit{}, nil, err
	}
	changes, err := rb.undoChanges(pub)
	if err != nil {
		return ledger.Commit{}, nil, err
	}
	changes, err = stillInEffect(changes, pub, undone)
	return pub, changes, err
}

// restoreAll puts each folder of changes back as it was before pub, in the publish branch's
// tree, and lists the versions restored for the audit; res names the last skill restored.
func (rb *rollback) restoreAll(changes []skilltree.Change, pub ledger.Commit, res *Result) (gitstore.Hash, []auditrun.Item, error) {
	r := rb.t.r
	tree := r.tree
	var items []auditrun.Item
	for _, f := range changes {
		var err error
		if tree, err = rb.restore(tree, f, pub); err != nil {
			return gitstore.ZeroHash, nil, err
		}
		if !f.Base.IsZero() {
			items = append(items, auditrun.Item{Name: f.Name(), Path: f.Path, Tree: f.Base, Base: f.Head, BaseLabel: gitstore.ShortRef(r.branch)})
		}
		res.Skill = f.Name()
	}
	return tree, items, nil
}

// restore puts f's folder back as it was before pub, refusing when the branch changed it since.
func (rb *rollback) restore(tree gitstore.Hash, f skilltree.Change, pub ledger.Commit) (gitstore.Hash, error) {
	r := rb.t.r
	cur, err := r.FolderAt(tree, f.Path)
	if err != nil {
		return tree, err
	}
	if cur != f.Head {
		return tree, rb.changedSince(f, pub)
	}
	return r.git.Writes().ReplacePath(tree, f.Path, skilltree.DirEntry(f.Base))
}

// changedSince says that the branch changed f's folder after publish pub, and what to do:
// roll back the later publish first, or, when a commit made with git changed it, propose the
// version wanted, since only publishes are rolled back.
func (rb *rollback) changedSince(f skilltree.Change, pub ledger.Commit) error {
	r := rb.t.r
	err := fmt.Errorf("%s: %w: %s changed %s after %s; roll back the later change first (`skillgit log %s`)",
		f.Name(), ErrConflict, gitstore.ShortRef(r.branch), f.Path, gitstore.ShortHash(pub.Hash.String()), f.Name())
	last, lerr := r.book().Trail().LastChanges(r.tip, []string{f.Name()})
	lc, ok := last[f.Name()]
	if lerr != nil || !ok || lc.Action == actPublish || lc.Action == actRollback {
		return err
	}
	return fmt.Errorf("%s: %w: %s changed %s after %s with commit %s, which is not a publish, so no rollback undoes it; propose the version you want (`skillgit propose %s --from-rev REV`; `skillgit log %s` lists the versions)",
		f.Name(), ErrConflict, gitstore.ShortRef(r.branch), f.Path, gitstore.ShortHash(pub.Hash.String()), gitstore.ShortHash(lc.Commit), f.Name(), f.Name())
}

// audit audits the versions the rollback restores and refuses a high-risk one.
func (rb *rollback) audit(items []auditrun.Item, res *Result) error {
	r := rb.t.r
	high, err := (actAudit{r: r, o: rb.o}).into(items, res)
	if err != nil {
		return err
	}
	if high {
		return fmt.Errorf("%s: %w: the version a rollback would restore is rated high risk by the audit; propose a fixed version instead", res.Skill, ErrRefused)
	}
	return nil
}

// rollbackMessage names every skill the rollback restores, so the trail knows which shares of
// the publish are undone.
func rollbackMessage(pub ledger.Commit, changes []skilltree.Change, res *Result, o ActOptions) string {
	subject, _, _ := ledger.CutSubject(pub.C.Message)
	body := fmt.Sprintf("Rolls back %q.\n\nThis reverts commit %s.", strings.TrimSpace(subject), pub.Hash)
	ts := trailerList{}.add(keyAction, actRollback)
	for _, f := range changes {
		ts = ts.add(keySkill, f.Name())
	}
	ts = ts.add(keyCandidate, res.ID).add(keyReverts, pub.Hash.String()).add(keyRisk, res.Risk).add(keyAudit, res.Audit)
	return ts.message("rollback: "+res.Skill, body, o)
}
