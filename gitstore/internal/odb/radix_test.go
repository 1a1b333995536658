package odb

import (
	"math/rand"
	"slices"
	"testing"
)

// TestRadixSort compares radixSort with the standard sort on offsets of
// several magnitudes, large offsets included.
func TestRadixSort(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for _, bits := range []int{1, 8, 20, 33, 62} {
		for _, n := range []int{0, 1, 2, 1000} {
			a := make([]int64, n)
			for i := range a {
				a[i] = rng.Int63n(1 << bits)
			}
			want := slices.Clone(a)
			slices.Sort(want)
			radixSort(a)
			if !slices.Equal(a, want) {
				t.Fatalf("radixSort of %d offsets of %d bits is not sorted", n, bits)
			}
		}
	}
}
