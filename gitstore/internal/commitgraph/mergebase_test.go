package commitgraph

import (
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestMergeBaseMatchesGit compares MergeBase with git merge-base --all on
// random pairs of commits and on every pair of branch tips, which include
// criss-cross merges with two best common ancestors.
func TestMergeBaseMatchesGit(t *testing.T) {
	for _, kind := range []string{"plain", "split"} {
		t.Run(kind, func(t *testing.T) {
			dir := fixture(t, kind)
			g := openFixture(t, kind)
			pairs := tipPairs(t, dir)
			ids := sortedIDs(gitLog(t, dir))
			rnd := rand.New(rand.NewPCG(3, 4))
			for i := 0; i < 150; i++ {
				pairs = append(pairs, [2]string{ids[rnd.IntN(len(ids))], ids[rnd.IntN(len(ids))]})
			}
			multi := 0
			for _, p := range pairs {
				want := gitMergeBases(t, dir, p[0], p[1])
				if len(want) > 1 {
					multi++
				}
				got := graphMergeBases(t, g, p[0], p[1])
				if !slices.Equal(got, want) {
					t.Fatalf("merge bases of %s %s: got %v, git says %v", p[0], p[1], got, want)
				}
			}
			if multi == 0 {
				t.Fatalf("no pair among %d had several merge bases", len(pairs))
			}
			t.Logf("%d pairs agree with git, %d with several merge bases", len(pairs), multi)
		})
	}
}

// tipPairs pairs every branch tip with every other.
func tipPairs(t *testing.T, dir string) [][2]string {
	tips := strings.Fields(git(t, dir, "for-each-ref", "--format=%(objectname)", "refs/heads/"))
	var pairs [][2]string
	for i := range tips {
		for j := i + 1; j < len(tips); j++ {
			pairs = append(pairs, [2]string{tips[i], tips[j]})
		}
	}
	return pairs
}

// sortedIDs lists the commit ids in a stable order.
func sortedIDs(commits map[string]gitCommit) []string {
	var ids []string
	for id := range commits {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// gitMergeBases runs git merge-base --all; exit status 1 means none.
func gitMergeBases(t *testing.T, dir, a, b string) []string {
	out, err := gitOut(dir, "", "merge-base", "--all", a, b)
	if err != nil && out != "" {
		t.Fatal(err)
	}
	bases := strings.Fields(out)
	sort.Strings(bases)
	return bases
}

// graphMergeBases runs MergeBase on two ids.
func graphMergeBases(t *testing.T, g *Graph, a, b string) []string {
	pa, ok1 := g.Lookup(mustID(t, a))
	pb, ok2 := g.Lookup(mustID(t, b))
	if !ok1 || !ok2 {
		t.Fatalf("%s or %s not in the graph", a, b)
	}
	bases, err := g.MergeBase(pa, pb)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range bases {
		out = append(out, hexOf(g.ID(p)))
	}
	sort.Strings(out)
	return out
}

// TestFirstParentsMatchesGit compares the first-parent walk from each
// branch tip with git rev-list --first-parent.
func TestFirstParentsMatchesGit(t *testing.T) {
	for _, kind := range []string{"plain", "split"} {
		dir := fixture(t, kind)
		g := openFixture(t, kind)
		for _, tip := range strings.Fields(git(t, dir, "for-each-ref", "--format=%(objectname)", "refs/heads/")) {
			want := strings.Fields(git(t, dir, "rev-list", "--first-parent", tip))
			start, _ := g.Lookup(mustID(t, tip))
			var got []string
			for pos, err := range g.FirstParents(start) {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, hexOf(g.ID(pos)))
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s: first-parent walk from %s has %d commits, git %d", kind, tip, len(got), len(want))
			}
		}
	}
}
