package published

import (
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
}

// NewCandidates returns an empty set.
func NewCandidates() *Candidates {
	return &Candidates{m: catalog.NewMatcher(nil), of: map[*catalog.Skill]*CandidateSkill{}}
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
}

// Closest returns the dedupeTopK candidates whose names and descriptions the matcher ranks
// best for sk's, best first, leaving out those skip reports true for, each with its body's
// shingles and the terms of its name and description.
func (s *Candidates) Closest(sk *catalog.Skill, skip func(CandidateSkill) bool) []CandidateSkill {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := catalog.MatchOptions{Limit: dedupeTopK, Skip: func(x *catalog.Skill) bool { return skip(*s.of[x]) }}
	var out []CandidateSkill
	for _, mt := range s.m.Match(sk.Name+" "+sk.Description, o).Matches {
		c := *s.of[mt.Skill]
		c.NameTerms, c.DescTerms = catalog.TermSet(c.Skill.Name), catalog.TermSet(c.Skill.Description)
		out = append(out, c)
	}
	return out
}
