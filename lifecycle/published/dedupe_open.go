package published

import (
	"slices"
	"strings"
	"sync"

	"github.com/skillgit/skillgit/catalog"
)

// Candidates is a set of open candidates that a proposal is compared with for likely
// duplicates. They are chosen as the published skills are: the matcher ranks them on name and
// description, and the closest dedupeTopK have their bodies compared. A batch of ten thousand
// proposals then makes ten thousand rankings, not fifty million comparisons of bodies. It is
// safe for concurrent use.
type Candidates struct {
	mu sync.Mutex
	m  *catalog.Matcher
	// of finds the candidate of each skill the matcher holds; Add gives each its own copy.
	of map[*catalog.Skill]*CandidateSkill
	// near lists the candidates under each of their body's sketchSize smallest shingles. A
	// body that keeps most of a candidate's steps keeps some of those, so a copy is
	// compared with the original whatever its name, and however many candidates with closer
	// names were proposed before it.
	near map[uint32][]*CandidateSkill
}

// The body sketch: how many of a body's smallest shingles find its near copies, and how
// many candidates may share one before it is boilerplate, a phrase a whole collection
// repeats, that finds nothing.
const (
	sketchSize = 8
	sketchMax  = 64
)

// NewCandidates returns an empty set.
func NewCandidates() *Candidates {
	return &Candidates{m: catalog.NewMatcher(nil), of: map[*catalog.Skill]*CandidateSkill{}, near: map[uint32][]*CandidateSkill{}}
}

// Add puts candidate c, with its skill, in the set. The set keeps the skill's name,
// description and folder and its body's shingles, not the body: a batch holds ten thousand.
func (s *Candidates) Add(c CandidateSkill) {
	if c.Shingles == nil {
		c.Shingles = catalog.ShinglesOf(c.Skill.Body, catalog.ShingleSize)
	}
	c.Skill = &catalog.Skill{Name: strings.Clone(c.Skill.Name), Description: strings.Clone(c.Skill.Description), Dir: strings.Clone(c.Skill.Dir)}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m.Add(c.Skill)
	s.of[c.Skill] = &c
	for _, x := range sketch(c.Shingles) {
		s.near[x] = append(s.near[x], &c)
	}
}

// sketch is the smallest shingles of a body: catalog.Shingles are sorted.
func sketch(sh catalog.Shingles) catalog.Shingles { return sh[:min(len(sh), sketchSize)] }

// Closest returns the dedupeTopK candidates whose names and descriptions the matcher ranks
// best for sk's, best first, then those whose body sketch shares a shingle with body (sk's),
// leaving out those skip reports true for; each with its body's shingles and the terms of
// its name and description.
func (s *Candidates) Closest(sk *catalog.Skill, body catalog.Shingles, skip func(CandidateSkill) bool) []CandidateSkill {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := catalog.MatchOptions{Limit: dedupeTopK, Skip: func(x *catalog.Skill) bool { return skip(*s.of[x]) }}
	var picked []*CandidateSkill
	for _, mt := range s.m.Match(sk.Name+" "+sk.Description, o).Matches {
		picked = append(picked, s.of[mt.Skill])
	}
	for _, x := range sketch(body) {
		if near := s.near[x]; len(near) <= sketchMax {
			for _, c := range near {
				if !slices.Contains(picked, c) && !skip(*c) {
					picked = append(picked, c)
				}
			}
		}
	}
	// The terms are taken for each comparison, not kept: kept for 10,000 open candidates
	// they would add 10 MB to the live heap, and with it 20 MB to a batch's peak.
	out := make([]CandidateSkill, 0, len(picked))
	for _, c := range picked {
		cs := *c
		cs.NameTerms, cs.DescTerms = catalog.TermSet(cs.Skill.Name), catalog.TermSet(cs.Skill.Description)
		out = append(out, cs)
	}
	return out
}
