package published

import (
	"fmt"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/catalog"
)

// TestScoreOverlapBoundKeepsEveryReport checks that comparing bodies only when their sizes
// allow a score at the floor reports exactly what scoring every pair reports: the same pairs,
// with the same scores.
func TestScoreOverlapBoundKeepsEveryReport(t *testing.T) {
	words := strings.Fields("read the form fields then fill them and check the totals before you sign and send the file to the team lead who files it")
	body := func(seed, n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%s ", words[(seed*7+i*(seed%5+1))%len(words)])
			if i%9 == 8 {
				b.WriteString(".\n")
			}
		}
		return b.String()
	}
	var skills []*catalog.Skill
	for s := range 24 {
		skills = append(skills, &catalog.Skill{Name: fmt.Sprintf("form-%d", s%6), Description: strings.Join(words[s%5:s%5+6], " "), Body: body(s%8, 20+s*13)})
	}
	reported := 0
	for _, sk := range skills {
		shingles := catalog.ShinglesOf(sk.Body, catalog.ShingleSize)
		name, desc := catalog.TermSet(sk.Name), catalog.TermSet(sk.Description)
		for _, other := range skills {
			it := CandidateSkill{Skill: other}
			got, ok := scoreOverlap(it, shingles, name, desc)
			n, _ := catalog.SharedTerms(name, catalog.TermSet(other.Name))
			d, _ := catalog.SharedTerms(desc, catalog.TermSet(other.Description))
			want := roundScore(catalog.Jaccard(shingles, catalog.ShinglesOf(other.Body, catalog.ShingleSize)), n, d)
			if ok != (want >= dedupeFloor) || ok && got.Score != want {
				t.Errorf("%s against %s: reported %v with %.2f; scoring every pair gives %.2f", sk.Name, other.Name, ok, got.Score, want)
			}
			if ok {
				reported++
			}
		}
	}
	if reported == 0 || reported == len(skills)*len(skills) {
		t.Fatalf("%d of %d pairs reported: the test needs pairs on both sides of the floor", reported, len(skills)*len(skills))
	}
}
