package lifecycle

import (
	"errors"
	"fmt"
	"strings"
)

// ErrAlreadyProposed says that an open candidate already proposes exactly the change asked for.
var ErrAlreadyProposed = errors.New("already proposed")

// checkOpen refuses a proposal that an open candidate of the same skill already makes, or a
// new skill that an open candidate proposes in another folder, and names the skill's other
// open candidates in res: each one more makes `review NAME` ask for an id, where revising the
// one open would have kept a single candidate.
func (p *proposal) checkOpen(snap *snapshot, res *Result) error {
	r := p.t.r
	chains, err := r.openOfSkill(snap.skill.Name)
	if err != nil {
		return err
	}
	revisable := ""
	for _, ch := range chains {
		tree, err := r.FolderAt(ch.Last().C.TreeHash, ch.Path())
		if err != nil {
			return err
		}
		isDelete := Change(ch.Propose().Claims.Get(keyChange)) == ChangeDelete
		if isDelete == (snap.change == ChangeDelete) && ch.Path() == snap.dest && tree == snap.tree {
			return alreadyProposed(snap, ch.ID, isDelete)
		}
		if snap.change == ChangeCreate && !isDelete && ch.Path() != snap.dest {
			return fmt.Errorf("%s: %w: the open candidate %s proposes a skill of this name at %s, and skill names are unique across category folders; choose another name, or revise that candidate (`skillgit revise %s`)",
				snap.skill.Name, ErrConflict, ch.ID, ch.Path(), ch.ID)
		}
		if !isDelete && revisable == "" {
			revisable = ch.ID
		}
		res.OpenCandidates = append(res.OpenCandidates, ch.ID)
	}
	if len(chains) > 0 && p.o.Pack == "" {
		res.addWarning(alsoOpen(snap.skill.Name, res.OpenCandidates, revisable))
	}
	return nil
}

// alreadyProposed is the error for a proposal that the open candidate id already makes.
func alreadyProposed(snap *snapshot, id string, isDelete bool) error {
	if isDelete {
		return fmt.Errorf("%s: %w: the open candidate %s proposes deleting this skill too; `skillgit review %s` shows it",
			snap.skill.Name, ErrAlreadyProposed, id, id)
	}
	return fmt.Errorf("%s: %w: the open candidate %s holds exactly this folder; change the skill and send the new version with `skillgit revise %s [PATH] -m FEEDBACK`, or see it with `skillgit review %s`",
		snap.skill.Name, ErrAlreadyProposed, id, id, id)
}

// alsoOpen is the warning that ids are open for skill too; revisable, when not empty, is one
// of them that a revise can update.
func alsoOpen(skill string, ids []string, revisable string) string {
	what := "candidate " + ids[0] + " is"
	if len(ids) > 1 {
		what = "candidates " + strings.Join(ids, ", ") + " are"
	}
	w := fmt.Sprintf("warning: %s: %s also open for this skill, so `skillgit review %s` now needs an id", skill, what, skill)
	if revisable != "" {
		w += fmt.Sprintf("; `skillgit revise %s [PATH] -m FEEDBACK` updates that one instead of adding a candidate", revisable)
	}
	return w
}
