package catalog

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// randomSkills makes n skills whose names and descriptions draw on a few words, so that
// scores tie often.
func randomSkills(rng *rand.Rand, n int) []*Skill {
	words := []string{"deploy", "flaky", "tests", "pdf", "forms", "csv", "review", "release", "notes", "lint"}
	pick := func() string { return words[rng.IntN(len(words))] }
	skills := make([]*Skill, n)
	for i := range skills {
		skills[i] = &Skill{Name: fmt.Sprintf("%s-%s", pick(), pick()), Dir: fmt.Sprintf("skills/%d", rng.IntN(n)),
			Description: fmt.Sprintf("%s the %s, then %s.", pick(), pick(), pick())}
	}
	return skills
}

var limitTasks = []string{"deploy the flaky tests", "pdf forms review", "csv", "lint release notes skill: csv-lint", "nothing matches"}

// TestMatchLimitAndSkipAreTheFullRankingCut checks that a limit and a skip give the first
// matches of the full ranking that the skip leaves, hints included.
func TestMatchLimitAndSkipAreTheFullRankingCut(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	m := NewMatcher(randomSkills(rng, 400))
	skip := func(s *Skill) bool { return len(s.Name)%3 == 0 }
	for _, task := range limitTasks {
		full := m.Match(task, MatchOptions{Hints: []string{"pdf-csv"}})
		var kept []Match
		for _, mt := range full.Matches {
			if !skip(mt.Skill) {
				kept = append(kept, mt)
			}
		}
		for _, limit := range []int{1, 2, 7, 20, 1000} {
			got := m.Match(task, MatchOptions{Hints: []string{"pdf-csv"}, Limit: limit, Skip: skip})
			want := kept[:min(limit, len(kept))]
			if len(want) == 0 {
				want = nil
			}
			if !reflect.DeepEqual(got.Matches, want) {
				t.Errorf("%q, limit %d: got %d matches, want the first %d of the full ranking", task, limit, len(got.Matches), len(want))
			}
		}
	}
}

// TestMatcherAddIsNewMatcher checks that skills added one by one rank as in a matcher built
// with all of them, and that adding does not write into the slice the matcher was built from.
func TestMatcherAddIsNewMatcher(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	skills := randomSkills(rng, 300)
	built := NewMatcher(skills)
	first := make([]*Skill, 100, 300)
	copy(first, skills)
	grown := NewMatcher(first)
	for _, s := range skills[100:] {
		grown.Add(s)
	}
	if first[:cap(first)][100] != nil {
		t.Fatal("Add wrote into the caller's slice")
	}
	for _, task := range limitTasks {
		for _, limit := range []int{0, 5} {
			got, want := grown.Match(task, MatchOptions{Limit: limit}), built.Match(task, MatchOptions{Limit: limit})
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%q, limit %d: the grown matcher ranks differently from the built one", task, limit)
			}
		}
	}
}
