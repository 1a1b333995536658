package gitstore

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestGrowthAnswersAsGit builds a batch of publishes: candidates of two commits each, on
// the start, on an older commit, on a candidate merged before and on a side line, merged one
// by one, with Grew told of each merge. Every commit is then asked whether it is an ancestor
// of every tip, and the answers must be git's.
func TestGrowthAnswersAsGit(t *testing.T) {
	r := diskRepo(true)(t)
	tree := mustTree(t, r)
	root := mustCommit(t, r, tree, "root")
	older := mustCommit(t, r, tree, "older", root)
	side := mustCommit(t, r, tree, "side", root)
	start := mustCommit(t, r, tree, "start", older)
	all := []Hash{root, older, side, start}
	rng := rand.New(rand.NewPCG(9, 10))
	tips := []Hash{start}
	var cands []Hash
	for i := range 12 {
		bases := append([]Hash{start, older, side}, cands...)
		base := bases[rng.IntN(len(bases))]
		propose := mustCommit(t, r, tree, fmt.Sprintf("propose %d", i), base)
		approve := mustCommit(t, r, tree, fmt.Sprintf("approve %d", i), propose)
		cands, all = append(cands, approve), append(all, propose, approve)
		if i%4 == 3 {
			continue // a candidate left open
		}
		old := tips[len(tips)-1]
		merge := mustCommit(t, r, tree, fmt.Sprintf("publish %d", i), old, approve)
		if err := r.History().Grew(old, merge); err != nil {
			t.Fatal(err)
		}
		tips, all = append(tips, merge), append(all, merge)
	}
	for _, tip := range tips[1:] {
		if _, known, _ := r.growth.answer(root, tip); !known {
			t.Fatalf("the growth cannot answer for tip %s", tip)
		}
	}
	for _, b := range tips {
		for _, a := range all {
			got, err := r.History().IsAncestor(a, b)
			if err != nil {
				t.Fatal(err)
			}
			_, gerr := gitErr(r.GitDir(), "", "merge-base", "--is-ancestor", a.String(), b.String())
			if want := gerr == nil; got != want {
				t.Errorf("IsAncestor(%s, %s) = %v, git says %v", a, b, got, want)
			}
		}
	}
}

// TestGrowthStartsAfreshElsewhere checks that a move from another tip than the last one
// recorded starts a new growth, and that a tip whose first parent is not the old tip is
// refused and forgets the growth.
func TestGrowthStartsAfreshElsewhere(t *testing.T) {
	r := OpenMemory()
	tree := mustTree(t, r)
	a := mustCommit(t, r, tree, "a")
	b := mustCommit(t, r, tree, "b", a)
	c := mustCommit(t, r, tree, "c", b)
	if err := r.History().Grew(a, b); err != nil {
		t.Fatal(err)
	}
	if err := r.History().Grew(b, c); err != nil || r.growth.start != a || len(r.growth.tips) != 2 {
		t.Fatalf("Grew(b, c) = %v; start %s, %d tips; want a and 2", err, r.growth.start, len(r.growth.tips))
	}
	if err := r.History().Grew(a, c); err == nil {
		t.Error("Grew(a, c) accepted a tip whose first parent is b")
	}
	if _, known, _ := r.growth.answer(a, c); known {
		t.Error("the growth still answers for c after a refused step")
	}
	if in, err := r.History().IsAncestor(b, c); !in || err != nil {
		t.Errorf("IsAncestor(b, c) = %v, %v after a refused step", in, err)
	}
}
