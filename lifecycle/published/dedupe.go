package published

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// How the dedupe check ranks and reports.
const (
	// dedupeTopK is how many published skills, ranked by the matcher on name and description,
	// have their bodies compared.
	dedupeTopK = 20
	// dedupeFloor is the least score reported.
	dedupeFloor = 0.3
	// dedupeReport is the most overlaps reported.
	dedupeReport = 3
	// The weights of the body, the name and the description in the score.
	weightBody, weightName, weightDesc = 0.7, 0.15, 0.15
)

// CandidateSkill is the skill an open candidate holds, whole (with its body).
type CandidateSkill struct {
	ID string
	// Of is the skill the candidate is of, as its branch names it.
	Of    string
	Skill *catalog.Skill
	// Shingles are the shingles of Skill's body when the caller has them; nil reads them.
	Shingles catalog.Shingles
	// NameTerms and DescTerms are the terms of Skill's name and description when the caller
	// has them (catalog.TermSet); nil reads them.
	NameTerms, DescTerms map[string]string
}

// Overlaps compares sk, a new proposal or a new version whose body's shingles are body
// (catalog.ShinglesOf), with the published skills other than its own and with the open
// candidates given (Candidates.Closest chooses them), and returns the closest, best first; a
// score that reaches the configuration's dedupe threshold marks a likely duplicate. Names
// and descriptions of the published skills are ranked by the channel's matcher; bodies are
// read and shingled for its top dedupeTopK and for the candidates only.
func (c *Channel) Overlaps(sk *catalog.Skill, body catalog.Shingles, candidates []CandidateSkill) ([]ledger.Overlap, error) {
	items, err := c.similar(sk)
	if err != nil {
		return nil, err
	}
	items = append(items, candidates...)
	name, desc := catalog.TermSet(sk.Name), catalog.TermSet(sk.Description)
	var found []scored
	for _, it := range items {
		if o, ok := scoreOverlap(it, body, name, desc); ok {
			found = append(found, o)
		}
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].Score > found[j].Score })
	// Only the overlaps reported are worded, and only they are kept: a batch keeps every
	// proposal's until its report.
	found = found[:min(len(found), dedupeReport)]
	out := make([]ledger.Overlap, 0, len(found))
	for _, o := range found {
		w := o.worded(desc)
		w.Duplicate = w.Score >= c.v.Config.Dedupe.ThresholdOrDefault()
		out = append(out, w)
	}
	return out, nil
}

// similar reads, whole, the published skills the matcher ranks best for sk's name and
// description, without sk's own skill.
func (c *Channel) similar(sk *catalog.Skill) ([]CandidateSkill, error) {
	m, err := c.index()
	if err != nil {
		return nil, err
	}
	var items []CandidateSkill
	fsys := c.git.Objects().TreeFS(c.v.Tree)
	for _, mt := range m.Match(sk.Name+" "+sk.Description, catalog.MatchOptions{Limit: dedupeTopK}).Matches {
		if mt.Skill.Name == sk.Name {
			continue
		}
		if full, _ := catalog.Load(fsys, mt.Skill.Dir, catalog.Lenient, false); full != nil {
			items = append(items, CandidateSkill{Skill: full})
		}
	}
	return items, nil
}

// scored is an overlap scored but not yet worded: its body likeness and the other skill's
// description terms are what its reason says.
type scored struct {
	ledger.Overlap
	body     float64
	descWith map[string]string
}

// scoreOverlap scores one skill against the candidate's body shingles and name and
// description terms; false when the score is below dedupeFloor. The bodies are compared
// last, and not at all when even bodies alike as far as their sizes allow could not lift the
// score to the floor: in a batch of a thousand proposals, most pairs end there.
func scoreOverlap(it CandidateSkill, body catalog.Shingles, name, desc map[string]string) (scored, bool) {
	if it.Shingles == nil {
		it.Shingles = catalog.ShinglesOf(it.Skill.Body, catalog.ShingleSize)
	}
	itDesc := termsOr(it.DescTerms, it.Skill.Description)
	n := catalog.TermJaccard(name, termsOr(it.NameTerms, it.Skill.Name))
	d := catalog.TermJaccard(desc, itDesc)
	if roundScore(bodyBound(body, it.Shingles), n, d) < dedupeFloor {
		return scored{}, false
	}
	b := catalog.Jaccard(body, it.Shingles)
	o := scored{Overlap: ledger.Overlap{Skill: it.Skill.Name, Candidate: it.ID, Score: roundScore(b, n, d)}, body: b, descWith: itDesc}
	return o, o.Score >= dedupeFloor
}

// worded returns the overlap with its reason, in one line, for a proposal described by the
// terms desc.
func (o scored) worded(desc map[string]string) ledger.Overlap {
	lead := "overlaps"
	switch {
	case o.body >= 0.8:
		lead = "same steps as"
	case o.body >= 0.4:
		lead = "similar steps to"
	}
	w := o.Overlap
	w.Reason = fmt.Sprintf("%s %s: body %d%% alike", lead, w.Label(), int(math.Round(o.body*100)))
	if _, shared := catalog.SharedTerms(desc, o.descWith); len(shared) > 0 {
		w.Reason += fmt.Sprintf("; description shares '%s'", strings.Join(firstN(shared, 5), ", "))
	}
	return w
}

// termsOr returns terms, or when nil the terms of text.
func termsOr(terms map[string]string, text string) map[string]string {
	if terms == nil {
		return catalog.TermSet(text)
	}
	return terms
}

// roundScore weighs the body, name and description likeness into a score, to two places.
func roundScore(b, n, d float64) float64 {
	return math.Round((weightBody*b+weightName*n+weightDesc*d)*100) / 100
}

// bodyBound is the most that the Jaccard likeness of two shingle sets of these sizes can be.
func bodyBound(a, b catalog.Shingles) float64 {
	lo, hi := min(len(a), len(b)), max(len(a), len(b))
	if hi == 0 {
		return 0
	}
	return float64(lo) / float64(hi)
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
