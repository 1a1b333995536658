package packs

import (
	"errors"
	"time"

	"github.com/skillgit/skillgit/lifecycle"
)

// packProposer proposes the changes of one pack update as candidates carrying value, with
// the message body, and records them in up; a change pending already is recorded as such.
type packProposer struct {
	r       *lifecycle.Repo
	o       UpdateOptions
	up      *Result
	pending map[string]proposed
	value   string
	body    string
	pack    string
}

// heldChunk goes on with changes from the one at done, with the repository's refs held, for
// as long as lifecycle.GroupFull allows for those it proposes, lands what it
// proposed, and returns how many changes it took. A chunk that cannot land is proposed again
// one change at a time, unheld.
func (pp *packProposer) heldChunk(changes []packChange, done int) int {
	r := pp.r
	r.Hold()
	defer r.Drop()
	began := time.Now()
	cands, skipped, warned := len(pp.up.Candidates), len(pp.up.Skipped), len(pp.up.Warnings)
	var made []packChange
	n := 0
	for done+n < len(changes) && !lifecycle.GroupFull(len(made), began) {
		c := changes[done+n]
		pp.o.step(done+n, len(changes))
		n++
		if pp.recordPending(c) {
			continue
		}
		pp.propose(c)
		made = append(made, c)
	}
	warning, err := r.Land()
	if warning != "" {
		pp.up.Warnings = append(pp.up.Warnings, warning)
	}
	switch {
	case err == nil:
	case errors.Is(err, lifecycle.ErrLandedInPart):
		pp.up.Warnings = append(pp.up.Warnings, "warning: "+err.Error()+"; `skillgit pack update "+pp.pack+"` proposes again what is missing")
	default:
		r.Drop()
		pp.up.Candidates, pp.up.Skipped, pp.up.Warnings = pp.up.Candidates[:cands], pp.up.Skipped[:skipped], pp.up.Warnings[:warned]
		pp.up.Warnings = append(pp.up.Warnings, "warning: "+err.Error()+"; the proposals it held were made again one at a time")
		for _, c := range made {
			pp.propose(c)
		}
	}
	return n
}

// recordPending records c as pending or rejected when a candidate of the pack proposed it
// already, and reports whether one did.
func (pp *packProposer) recordPending(c packChange) bool {
	seen, ok := pp.pending[pendingKey(c.name, c.want)]
	switch {
	case !ok:
		return false
	case seen.rejected:
		pp.up.Rejected = append(pp.up.Rejected, c.name+" ("+seen.id+")")
	default:
		pp.up.Pending = append(pp.up.Pending, c.name+" ("+seen.id+")")
	}
	return true
}

// propose proposes c and records the candidate, or why it was skipped.
func (pp *packProposer) propose(c packChange) {
	po := lifecycle.ProposeOptions{ActOptions: pp.o.ActOptions, Target: c.name, Pack: pp.value, Message: pp.body}
	if c.change == lifecycle.ChangeDelete {
		po.Delete = true
	} else {
		po.Source, po.SourceDir, po.Lenient = c.skill.src, c.skill.dir, len(c.skill.lenient) > 0
		po.SourceLabel = "pack " + pp.pack + ":" + c.skill.file
	}
	res, err := pp.r.Propose(po)
	if err != nil {
		kind := SkipRefused
		if errors.Is(err, lifecycle.ErrConflict) {
			kind = SkipConflict
		}
		pp.up.Skipped = append(pp.up.Skipped, Skipped{Skill: c.name, Kind: kind, Reason: err.Error()})
		return
	}
	pp.up.Warnings = append(pp.up.Warnings, res.Warnings...)
	// The report lists each candidate, not its audit: a pack of 10,000 keeps none of them.
	res.Reports, res.Warnings = nil, nil
	if pp.o.Brief {
		res.Overlaps = nil
	}
	pp.up.Candidates = append(pp.up.Candidates, res)
}
