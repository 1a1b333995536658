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
