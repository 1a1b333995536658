package catalog

import (
	"fmt"
	"reflect"
	"runtime"
	"testing"
)

// TestNewMatcherParallelSameIndex checks that a catalog large enough to be indexed on several
// cores gets exactly the index that one core builds.
func TestNewMatcherParallelSameIndex(t *testing.T) {
	words := []string{"deploy", "migrations", "flaky", "tests", "pdf", "forms", "csv", "cleaning", "review", "Go"}
	skills := make([]*Skill, 3*parallelIndexMin)
	for i := range skills {
		skills[i] = &Skill{Name: fmt.Sprintf("skill-%d", i),
			Description: fmt.Sprintf("%s the %s and %s, then %s.", words[i%10], words[(i/10)%10], words[(i/7)%10], words[(i/3)%10])}
	}
	prev := runtime.GOMAXPROCS(1)
	one := NewMatcher(skills)
	runtime.GOMAXPROCS(max(prev, 4))
	many := NewMatcher(skills)
	runtime.GOMAXPROCS(prev)
	if !reflect.DeepEqual(one.post, many.post) || !reflect.DeepEqual(one.lens, many.lens) || one.avgLen != many.avgLen {
		t.Fatal("the index built on several cores differs from the one built on one")
	}
	got := many.Match("deploy the flaky tests", MatchOptions{Limit: 5})
	want := one.Match("deploy the flaky tests", MatchOptions{Limit: 5})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Match differs: %v, want %v", got, want)
	}
}

// TestNewMatcherExactPostingLists checks that every posting list is made exactly as long as
// it needs, so that none grew a copy nor holds room it never fills.
func TestNewMatcherExactPostingLists(t *testing.T) {
	m := NewMatcher(fixtureSkills(t))
	if len(m.post) == 0 {
		t.Fatal("the fixture's index has no terms")
	}
	for st, ps := range m.post {
		if len(ps) == 0 || len(ps) != cap(ps) {
			t.Errorf("term %q: %d postings in room for %d", st, len(ps), cap(ps))
		}
	}
}
