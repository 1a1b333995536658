package lifecycle

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/interrupt"
	"github.com/skillgit/skillgit/lifecycle/skilltree"
)

// MergeCandidate folds candidate newer, a likely duplicate, into the older open candidate
// older: older's branch gets a revise commit whose skill folder is newer's, renamed to older's
// skill, with a Skillgit-Merged-From trailer and note; then newer is rejected with a pointer to
// older. Both must be open candidates of skills, not deletions or policy changes.
func (r *Repo) MergeCandidate(newer, older, note string, o ActOptions) (*Result, *Result, error) {
	_, _, chNew, cNew, err := r.actOn(newer, o)
	if err != nil {
		return nil, nil, err
	}
	_, _, chOld, cOld, err := r.actOn(older, o)
	if err != nil {
		return nil, nil, err
	}
	if err := checkMergeable(cNew, cOld); err != nil {
		return nil, nil, err
	}
	dir, untrack, err := interrupt.MkdirTemp("", "skillgit-merge-")
	if err != nil {
		return nil, nil, err
	}
	defer untrack()
	defer os.RemoveAll(dir)
	if tempMade != nil {
		tempMade(dir)
	}
	src := filepath.Join(dir, cOld.Skill)
	rename := cOld.Skill
	if rename == cNew.Skill {
		rename = ""
	}
	if err := skilltree.Extract(r.git, chNew.Last().C.TreeHash, cNew.Path, cNew.ID, rename, src); err != nil {
		return nil, nil, err
	}
	msg := fmt.Sprintf("Merged candidate %s (%s) into this one as a likely duplicate.", chNew.ID, cNew.Skill)
	if note != "" {
		msg += "\n\n" + note
	}
	rev, err := r.Revise(chOld.ID, ProposeOptions{ActOptions: o, From: src, Message: msg, mergedFrom: chNew.ID})
	if err != nil {
		return rev, nil, err
	}
	rej, err := r.Reject(chNew.ID, fmt.Sprintf("merged into %s: its content is now revision %s of that candidate.", chOld.ID, gitstore.ShortHash(rev.Commit)), o)
	return rev, rej, err
}

// tempMade, when a test sets it, is called with the path of each temporary folder this
// package makes, just after it is made and registered.
var tempMade func(path string)

// checkMergeable refuses to merge a candidate into itself, or candidates that are not open
// changes of skill folders.
func checkMergeable(cNew, cOld *Candidate) error {
	if cNew.ID == cOld.ID {
		return fmt.Errorf("%s: %w: a candidate cannot be merged into itself; name the older candidate second", cNew.ID, ErrRefused)
	}
	for _, c := range []*Candidate{cNew, cOld} {
		if c.State != StateOpen && c.State != StateApproved {
			return fmt.Errorf("%s: %w: the candidate is %s; only open candidates are merged", c.ID, ErrRefused, c.State)
		}
		if c.Change == ChangeDelete || c.Change == ChangePolicy {
			return fmt.Errorf("%s: %w: the candidate is a %s change, which has no skill folder to merge; reject it instead", c.ID, ErrRefused, c.Change)
		}
	}
	return nil
}
