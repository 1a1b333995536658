package gitstore

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDeriveOffsetsMatchesScan checks, on random versions of random trees, that offsets
// taken from a nearby version are those a full scan takes, a damaged version included.
func TestDeriveOffsetsMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for round := range 400 {
		base := randomTree(rng, 1+rng.IntN(300))
		baseData := string(encodeTree(base))
		at := scanOffsets(baseData)
		if at == nil {
			t.Fatalf("round %d: the base tree does not scan", round)
		}
		next := mutate(rng, base)
		if round%2 == 1 {
			// One entry changed, gone or added, as a publish makes.
			next = slices.Clone(base)
			switch k := rng.IntN(len(next)); rng.IntN(3) {
			case 0:
				next[k].Hash[7]++
			case 1:
				next = slices.Delete(next, k, k+1)
			default:
				next = append(slices.Clone(base), randomTree(rng, 1)...)
				slices.SortFunc(next, compareEntries)
				next = slices.CompactFunc(next, func(a, b TreeEntry) bool { return a.Name == b.Name })
			}
		}
		if round%5 == 0 && len(next) > 2 {
			// Out of order: two neighbours swapped, or one entry twice.
			k := rng.IntN(len(next) - 1)
			if round%10 == 0 {
				next[k], next[k+1] = next[k+1], next[k]
			} else {
				next[k+1] = next[k]
			}
		}
		data := string(encodeTree(next))
		pre, suf := sharedEndsOf(baseData, data)
		if got, want := deriveOffsets(data, nearTree{b: baseData, at: at, pre: pre, suf: suf}), scanOffsets(data); !slices.Equal(got, want) {
			t.Fatalf("round %d: derived offsets %v, scanned %v", round, got, want)
		}
	}
}

// TestNearOffsetsUsesAKeptVersion checks that the cache takes a version's offsets from a
// kept version it shares most of its bytes with, and scans one it shares little with.
func TestNearOffsetsUsesAKeptVersion(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	base := randomTree(rng, 500)
	var c rawTreeCache
	kept := c.add(Hash{1}, encodeTree(base))
	if kept == nil {
		t.Fatal("the tree is too small to be kept")
	}
	RawTree{data: string(kept.b), offs: kept.offs}.offsets()
	next := slices.Clone(base)
	next[250].Hash[5] ^= 1
	next = slices.Delete(next, 100, 101)
	data := string(encodeTree(next))
	if n, ok := c.nearest(data); !ok || n.b != string(kept.b) {
		t.Fatal("the kept version near the new one was not found")
	}
	if got, ok := c.nearOffsets(data); !ok || !slices.Equal(got, scanOffsets(data)) {
		t.Fatalf("offsets from the kept version %v (%v), scanned %v", got, ok, scanOffsets(data))
	}
	farEntries := randomTree(rng, 500)
	far := string(encodeTree(farEntries))
	if _, ok := c.nearOffsets(far); ok {
		t.Error("an unrelated tree was taken as near")
	}

	// The first lookup in a version with a near one kept takes its offsets; in one without,
	// it scans and leaves them for a second lookup.
	for _, v := range []struct {
		name  string
		data  string
		entry TreeEntry
		want  bool
	}{{"near", data, next[400], true}, {"far", far, farEntries[400], false}} {
		k := c.add(Hash{2, byte(len(v.name))}, []byte(v.data))
		tree := RawTree{data: string(k.b), offs: k.offs}
		if e, ok, err := tree.Entry(v.entry.Name); err != nil || !ok || e != v.entry {
			t.Fatalf("%s: Entry(%s) = %v, %v, %v; want %v", v.name, v.entry.Name, e, ok, err, v.entry)
		}
		if got := k.offs.ready.Load(); got != v.want {
			t.Errorf("%s: offsets taken by the first lookup: %v; want %v", v.name, got, v.want)
		}
	}
}
