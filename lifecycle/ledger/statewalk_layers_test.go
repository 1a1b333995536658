package ledger

import (
	"maps"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/skillgit/skillgit/gitstore"
)

// TestHashLayersAreTheNewestWalksOnTop stacks walks as a batch of publishes makes them,
// mostly one entry each and now and then many, some keys taken again by a newer walk, and
// checks after each that every key reads as the newest walk that holds it gives, that the
// layers stay as few as the logarithm of the entries, and that no walk's layers changed.
func TestHashLayersAreTheNewestWalksOnTop(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	key := func() gitstore.Hash { return gitstore.Hash{byte(rng.IntN(40)), byte(rng.IntN(256))} }
	want := map[gitstore.Hash]gitstore.Hash{}
	var m hashLayers
	var kept []hashLayers
	var copies []map[gitstore.Hash]gitstore.Hash
	for walk := range 600 {
		next := newHashLayers()
		n := 1
		if walk%50 == 0 {
			n = rng.IntN(300)
		}
		for range n {
			k := key()
			v := gitstore.Hash{0xee, byte(walk), byte(walk >> 8)}
			if _, seen := next.own[k]; !seen {
				next.own[k] = v
			}
		}
		for k, v := range next.own {
			want[k] = v
		}
		m = next.over(m)
		kept, copies = append(kept, m), append(copies, flatten(t, m))
		if got := flatten(t, m); !maps.Equal(got, want) {
			t.Fatalf("walk %d: %d entries read back, want %d, or values differ", walk, len(got), len(want))
		}
		if limit := bits.Len(uint(len(want))) + 1; len(m.below) > limit {
			t.Fatalf("walk %d: %d layers for %d entries; want at most %d", walk, len(m.below), len(want), limit)
		}
	}
	for i := range kept {
		if !maps.Equal(flatten(t, kept[i]), copies[i]) {
			t.Fatalf("walk %d's layers changed after newer walks were put on top", i)
		}
	}
}

// flatten is m.flat, checked against get for every key.
func flatten(t *testing.T, m hashLayers) map[gitstore.Hash]gitstore.Hash {
	t.Helper()
	out := m.flat()
	for k, v := range out {
		if got, ok := m.get(k); !ok || got != v {
			t.Fatalf("get(%v) = %v, %v; flat says %v", k, got, ok, v)
		}
	}
	return out
}
