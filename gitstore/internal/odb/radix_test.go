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

// BenchmarkRadixSort200k sorts the offsets of a pack of 200,000
// objects, what a first read of a large pack without a rev file costs.
func BenchmarkRadixSort200k(b *testing.B) {
	rng := rand.New(rand.NewSource(5))
	src := make([]int64, 200000)
	for i := range src {
		src[i] = rng.Int63n(1 << 30)
	}
	a := make([]int64, len(src))
	b.ReportAllocs()
	for b.Loop() {
		copy(a, src)
		radixSort(a)
	}
}
