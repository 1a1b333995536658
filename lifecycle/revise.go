package lifecycle

import (
	"fmt"
	"path/filepath"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/skilltree"
)

// Revise records a new version of a candidate's skill with the reviewer's feedback as a
// commit on its branch. It voids the approvals given so far. With approvals.signed, the
// commit is signed like an approval.
func (r *Repo) Revise(id string, o ProposeOptions) (*Result, error) {
	if o.Message == "" {
		return nil, fmt.Errorf("%s: a revision needs the feedback it answers (-m FEEDBACK)", id)
	}
	if o.Delete {
		return nil, fmt.Errorf("%s: a revision cannot turn a candidate into a deletion; propose the deletion on its own", id)
	}
	t, warn, ch, c, err := r.actOn(id, o.ActOptions)
	if err != nil {
		return nil, err
	}
	rv := &revision{t: t, o: o, ch: ch, c: c}
	if err := rv.check(); err != nil {
		return nil, err
	}
	sign, err := t.signer(ch.ID, "a revision")
	if err != nil {
		return nil, err
	}
	snap, err := rv.snapshot()
	if err != nil {
		return nil, err
	}
	res := &Result{Action: actRevise, ID: ch.ID, Branch: gitstore.ShortRef(ch.Ref), Skill: c.Skill, Change: c.Change, Warnings: snap.warnings}
	res.addWarning(warn)
	if err := rv.audit(snap, res); err != nil {
		return nil, err
	}
	if err := rv.write(snap, res, sign); err != nil {
		return nil, err
	}
	err = automate(r, res, o.ActOptions)
	t.done(res)
	return res, err
}

// revision is a new version of an open candidate's skill folder being recorded, with the
// feedback it answers.
type revision struct {
	t  *tx
	o  ProposeOptions
	ch *ledger.Chain
	c  *Candidate
}

// check refuses to revise a policy change or a deletion, which have no skill folder.
func (rv *revision) check() error {
	id, c := rv.ch.ID, rv.c
	if c.Change == ChangePolicy {
		return fmt.Errorf("%s: is a policy change; edit the policy files and run `skillgit propose --config` again, then reject this one", id)
	}
	if c.Change == ChangeDelete {
		return fmt.Errorf("%s: proposes deleting %s; there is no folder to revise; reject it and propose again", id, c.Skill)
	}
	return nil
}

// audit audits the new version and compares it with the other skills and open candidates,
// recording both in res.
func (rv *revision) audit(snap *snapshot, res *Result) error {
	r := rv.t.r
	if err := (actAudit{r: r, o: rv.o.ActOptions}).snapshot(snap, res); err != nil {
		return err
	}
	return dupCheck{r: r}.record(snap, res, rv.ch.ID, rv.o.mergedFrom)
}

// write writes the revise commit, signed by sign when it is not nil, and moves the
// candidate's branch to it.
func (rv *revision) write(snap *snapshot, res *Result, sign signer) error {
	t, ch, c, o := rv.t, rv.ch, rv.c, rv.o
	tree, err := t.r.git.Writes().ReplacePath(ch.Last().C.TreeHash, c.Path, skilltree.DirEntry(snap.tree))
	if err != nil {
		return err
	}
	ts := trailerList{}.add(keyAction, actRevise).add(keySkill, c.Skill).add(keyCandidate, ch.ID).
		add(keyChange, string(c.Change)).add(keyRisk, res.Risk).add(keyAudit, res.Audit)
	ts = duplicateTrailers(ts, res.Overlaps).add(keyMergedFrom, o.mergedFrom)
	h, err := t.commit(tree, ts.message("revise: "+c.Skill, o.Message, o.ActOptions), sign, ch.Tip)
	if err != nil {
		return err
	}
	if err := t.moveCandidate(ch, h, actRevise); err != nil {
		return fmt.Errorf("%s: the candidate changed while you revised it; review it again: %w", ch.ID, err)
	}
	res.Commit, res.State = h.String(), StateOpen
	if sign != nil {
		t.warnUnverifiedContent(res, h)
	}
	return nil
}

// snapshot snapshots the new version: --from, else the PATH given, else the candidate's
// folder in the working tree. It must differ from the candidate's current version.
func (rv *revision) snapshot() (*snapshot, error) {
	r, ch, c := rv.t.r, rv.ch, rv.c
	snap, label, err := rv.source()
	if err != nil {
		return nil, err
	}
	cur, err := skilltree.FolderAt(r.git, ch.Last().C.TreeHash, c.Path)
	if err != nil {
		return nil, err
	}
	if snap.tree == cur {
		return nil, fmt.Errorf("%s: nothing to revise: %s is already exactly this on the candidate", ch.ID, label)
	}
	snap.dest, snap.change = c.Path, c.Change
	if snap.old, err = skilltree.FolderAt(r.git, r.tree, c.Path); err != nil {
		return nil, err
	}
	return snap, nil
}

// source reads the new version of the candidate's skill: Source when given, else --from,
// PATH or the skill's folder in the working tree. It returns the snapshot and how messages
// name where it came from.
func (rv *revision) source() (*snapshot, string, error) {
	r, o, c, sn := rv.t.r, rv.o, rv.c, newSnapshots(rv.t.r)
	if o.Source != nil {
		label := o.sourceLabel()
		snap, err := sn.fs(o.Source, o.SourceDir, label, "", c.Skill, false)
		return snap, label, err
	}
	src, from := o.Target, o.From
	if src == "" && from == "" {
		wt := r.git.WorktreeDir()
		if wt == "" {
			return nil, "", fmt.Errorf("%s: a bare repository has no working tree to take the revision from; pass --from DIR", rv.ch.ID)
		}
		src = filepath.Join(wt, filepath.FromSlash(c.Path))
	}
	dir, err := sn.sourceDir(src, from)
	if err != nil {
		return nil, "", err
	}
	snap, err := sn.dir(dir, c.Skill)
	return snap, dir, err
}
