package lifecycle

import (
	"fmt"
	"path/filepath"

	"github.com/skillgit/skillgit/lifecycle/ledger"
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
	id = ch.ID // the id of the candidate a skill name named
	if c.Change == ChangePolicy {
		return nil, fmt.Errorf("%s: is a policy change; edit the policy files and run `skillgit propose --config` again, then reject this one", id)
	}
	if c.Change == ChangeDelete {
		return nil, fmt.Errorf("%s: proposes deleting %s; there is no folder to revise; reject it and propose again", id, c.Skill)
	}
	sign, err := t.signer(id, "a revision")
	if err != nil {
		return nil, err
	}
	snap, err := r.revision(ch, c, o)
	if err != nil {
		return nil, err
	}
	res := &Result{Action: actRevise, ID: id, Branch: short(ch.Ref), Skill: c.Skill, Change: c.Change, Warnings: snap.warnings}
	res.addWarning(warn)
	if err := r.auditSnapshot(snap, res, o.ActOptions); err != nil {
		return nil, err
	}
	if err := r.dedupe(snap, res, id, o.mergedFrom); err != nil {
		return nil, err
	}
	tree, err := r.Git.ReplacePath(ch.Last().C.TreeHash, c.Path, dirEntry(snap.tree))
	if err != nil {
		return nil, err
	}
	ts := trailerList{}.add(keyAction, actRevise).add(keySkill, c.Skill).add(keyCandidate, id).
		add(keyChange, string(c.Change)).add(keyRisk, res.Risk).add(keyAudit, res.Audit)
	ts = duplicateTrailers(ts, res.Overlaps).add(keyMergedFrom, o.mergedFrom)
	h, err := t.commit(tree, ts.message("revise: "+c.Skill, o.Message, o.ActOptions), sign, ch.Tip)
	if err != nil {
		return nil, err
	}
	if err := t.moveCandidate(ch, h, actRevise); err != nil {
		return nil, fmt.Errorf("%s: the candidate changed while you revised it; review it again: %w", id, err)
	}
	res.Commit, res.State = h.String(), StateOpen
	if sign != nil {
		t.warnUnverifiedContent(res, h)
	}
	err = r.automate(res, o.ActOptions)
	t.done(res)
	return res, err
}

// revision snapshots the new version: --from, else the PATH given, else the candidate's folder
// in the working tree. It must differ from the candidate's current version.
func (r *Repo) revision(ch *ledger.Chain, c *Candidate, o ProposeOptions) (*snapshot, error) {
	snap, label, err := r.revisionSource(ch, c, o)
	if err != nil {
		return nil, err
	}
	cur, err := r.FolderAt(ch.Last().C.TreeHash, c.Path)
	if err != nil {
		return nil, err
	}
	if snap.tree == cur {
		return nil, fmt.Errorf("%s: nothing to revise: %s is already exactly this on the candidate", ch.ID, label)
	}
	snap.dest, snap.change = c.Path, c.Change
	if snap.old, err = r.FolderAt(r.Tree, c.Path); err != nil {
		return nil, err
	}
	return snap, nil
}

// revisionSource reads the new version of the candidate's skill: Source when given, else
// --from, PATH or the skill's folder in the working tree. It returns the snapshot and how
// messages name where it came from.
func (r *Repo) revisionSource(ch *ledger.Chain, c *Candidate, o ProposeOptions) (*snapshot, string, error) {
	if o.Source != nil {
		label := o.sourceLabel()
		snap, err := r.snapshotFS(o.Source, o.SourceDir, label, "", c.Skill)
		return snap, label, err
	}
	src, from := o.Target, o.From
	if src == "" && from == "" {
		wt := r.Git.WorktreeDir()
		if wt == "" {
			return nil, "", fmt.Errorf("%s: a bare repository has no working tree to take the revision from; pass --from DIR", ch.ID)
		}
		src = filepath.Join(wt, filepath.FromSlash(c.Path))
	}
	dir, err := r.sourceDir(src, from)
	if err != nil {
		return nil, "", err
	}
	snap, err := r.snapshotDir(dir, c.Skill)
	return snap, dir, err
}
