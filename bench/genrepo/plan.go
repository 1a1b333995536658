package genrepo

import "math/rand/v2"

// kind is one thing that happens to the repository.
type kind int

const (
	// kindCreate proposes a new skill, approves and publishes it.
	kindCreate kind = iota
	// kindPatch proposes a change to a skill, approves and publishes it.
	kindPatch
	// kindAuto is a low-risk patch approved by the assisted-mode policy, then published.
	kindAuto
	// kindManual is a plain git commit on the publish branch that edits a few skills.
	kindManual
	// kindRollback restores the version of a skill before its last publish.
	kindRollback
	// kindDelete proposes the removal of a skill, approves and publishes it.
	kindDelete
	// kindReject proposes a patch that a reviewer rejects; the branch goes to the archive.
	kindReject
	// kindOpen proposes a patch that is still waiting for review at the end.
	kindOpen
)

// event is one planned step; revised adds a revise commit to the candidate.
type event struct {
	kind    kind
	revised bool
}

// weights says how often each kind happens, in kind order.
var weights = []int{20, 40, 12, 12, 5, 3, 6, 2}

// maxOpen bounds how many candidates are left open.
const maxOpen = 20

// cost is the number of commits an event writes.
func (e event) cost() int {
	n := map[kind]int{kindCreate: 3, kindPatch: 3, kindAuto: 3, kindManual: 1, kindRollback: 1, kindDelete: 3, kindReject: 2, kindOpen: 1}[e.kind]
	if e.revised {
		n++
	}
	return n
}

// plan draws events until they fill budget commits exactly. It keeps creations to half the
// skills and deletions to half the creations, so that the import is never empty and the
// publish branch always keeps at least half of its final skills.
func plan(r *rand.Rand, budget, skills int) (events []event, creates, deletes int) {
	open := 0
	for budget > 0 {
		e := event{kind: drawKind(r)}
		switch {
		case e.kind == kindCreate && creates >= skills/2,
			e.kind == kindDelete && deletes >= creates/2,
			e.kind == kindOpen && open >= maxOpen:
			e.kind = kindPatch
		}
		if e.kind == kindCreate || e.kind == kindPatch {
			e.revised = r.IntN(5) == 0
		}
		if e.cost() > budget {
			e = event{kind: kindManual}
		}
		creates += b2i(e.kind == kindCreate)
		deletes += b2i(e.kind == kindDelete)
		open += b2i(e.kind == kindOpen)
		budget -= e.cost()
		events = append(events, e)
	}
	return events, creates, deletes
}

func drawKind(r *rand.Rand) kind {
	total := 0
	for _, w := range weights {
		total += w
	}
	n := r.IntN(total)
	for k, w := range weights {
		if n < w {
			return kind(k)
		}
		n -= w
	}
	return kindPatch
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
