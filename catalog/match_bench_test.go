package catalog

import (
	"fmt"
	"testing"
)

// BenchmarkMatch ranks 10,000 skills for one name and description, keeping the 20 best, as
// the duplicate check of a batch of proposals does once per proposal.
func BenchmarkMatch(b *testing.B) {
	m := NewMatcher(nil)
	for i := range 10000 {
		m.Add(&Skill{Name: fmt.Sprintf("tool-%d-%s", i, []string{"lint", "deploy", "review", "format"}[i%4]),
			Description: fmt.Sprintf("Runs the %d tool over a project and reports what it finds. Use when asked to check code.", i)})
	}
	b.ReportAllocs()
	for b.Loop() {
		if res := m.Match("tool-77-lint Runs the tool over a project and reports findings", MatchOptions{Limit: 20}); len(res.Matches) != 20 {
			b.Fatalf("%d matches; want 20", len(res.Matches))
		}
	}
}
