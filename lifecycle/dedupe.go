package lifecycle

import (
	"fmt"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/published"
)

// The trailers of the dedupe check.
const (
	// keyOverlaps records, on a propose or revise commit, one skill or candidate the new
	// version likely duplicates: "NAME SCORE REASON", NAME being a skill or candidate/ID.
	keyOverlaps = ledger.KeyOverlaps
	// keyMergedFrom names, on a revise commit of merge-candidate, the candidate folded in.
	keyMergedFrom = ledger.KeyMergedFrom
)

// dupCheck compares a proposed or revised skill with the published skills and the open
// candidates of r, for the likely duplicates a person should weigh.
type dupCheck struct{ r *Repo }

// overlaps compares sk, a new proposal or the new version of candidate self, with the
// published skills and the open candidates other than self and those of the same skill, and
// returns the closest, best first (published.Channel.Overlaps).
func (d dupCheck) overlaps(sk *catalog.Skill, self ...string) ([]ledger.Overlap, error) {
	r := d.r
	ix, err := r.openIndex()
	if err != nil {
		return nil, err
	}
	var open *published.Candidates
	if ix != nil {
		open = ix.skills
	} else if open, err = d.openSkills(sk.Name, self); err != nil {
		return nil, err
	}
	skip := func(c published.CandidateSkill) bool { return c.Of == sk.Name || slices.Contains(self, c.ID) }
	body := catalog.ShinglesOf(sk.Body, catalog.ShingleSize)
	return r.Published().Overlaps(sk, body, open.Closest(sk, body, skip))
}

// openSkills reads the skills of the open candidates that create or patch one, other than
// self and those of skill name.
func (d dupCheck) openSkills(name string, self []string) (*published.Candidates, error) {
	cands, err := d.r.book().Candidates("open")
	if err != nil {
		return nil, err
	}
	open := published.NewCandidates()
	for _, c := range cands {
		if slices.Contains(self, c.ID) || c.Skill == name || noSkill(c.Change) {
			continue
		}
		if full := d.candidateSkill(c); full != nil {
			open.Add(published.CandidateSkill{ID: c.ID, Of: c.Skill, Skill: full})
		}
	}
	return open, nil
}

// candidateSkill reads the skill at the tip of candidate c, or nil when it cannot be read.
func (d dupCheck) candidateSkill(c *Candidate) *catalog.Skill {
	r := d.r
	ci, err := r.readCommit(plumbing.NewHash(c.Tip))
	if err != nil {
		return nil
	}
	full, _ := catalog.Load(r.git.Objects().TreeFS(ci.C.TreeHash), c.Path, catalog.Lenient, false)
	return full
}

// duplicateTrailers adds a Skillgit-Overlaps trailer for each likely duplicate.
func duplicateTrailers(ts trailerList, overlaps []ledger.Overlap) trailerList {
	for _, o := range overlaps {
		if o.Duplicate {
			ts = ts.add(keyOverlaps, overlapTrailer(o))
		}
	}
	return ts
}

// overlapTrailer renders an overlap as a trailer value: "NAME SCORE REASON", on one line.
func overlapTrailer(o ledger.Overlap) string {
	name := o.Skill
	if o.Candidate != "" {
		name = "candidate/" + o.Candidate
	}
	reason := strings.Join(strings.Fields(o.Reason), " ")
	return fmt.Sprintf("%s %.2f %s", name, o.Score, reason)
}

// likelyDuplicate says why the mode leaves a candidate to people as a likely duplicate, or "".
func likelyDuplicate(dups []ledger.Overlap) string {
	for _, o := range dups {
		if o.Duplicate {
			return fmt.Sprintf("it is a likely duplicate of %s (overlap %.2f); a person decides whether to keep both", o.Label(), o.Score)
		}
	}
	return ""
}

// record compares a proposed or revised skill with the others and records the closest in
// res.Overlaps; self are the candidates left out: the one revised and the one merged into it.
func (d dupCheck) record(snap *snapshot, res *Result, self ...string) error {
	if snap.change == ChangeDelete || snap.skill == nil {
		return nil
	}
	var err error
	res.Overlaps, err = d.overlaps(snap.skill, self...)
	return err
}

// leaveDuplicate reports whether the mode must leave a fresh proposal or revision to people as
// a likely duplicate, and says so in a warning.
func (a *automation) leaveDuplicate() bool {
	why := likelyDuplicate(a.res.Overlaps)
	if why != "" {
		a.res.addWarning(fmt.Sprintf("warning: %s: mode %s neither approves nor publishes it: %s", a.res.ID, a.r.cfg.Mode, why))
	}
	return why != ""
}

// orDuplicate is why, or, when the mode would publish c, why a likely duplicate is left to people.
func orDuplicate(why string, c *Candidate) string {
	if why != "" {
		return why
	}
	return likelyDuplicate(c.Duplicates)
}
