package parallel

import (
	"sync/atomic"
	"testing"
)

func TestForCallsEveryIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, chunk - 1, chunk, chunk + 1, 10*chunk + 7, 10000} {
		for _, workers := range []int{0, 1, 2, 3, 8, 64} {
			calls := make([]atomic.Int32, n)
			For(n, workers, func(i int) { calls[i].Add(1) })
			for i := range calls {
				if got := calls[i].Load(); got != 1 {
					t.Fatalf("n %d, workers %d: index %d called %d times", n, workers, i, got)
				}
			}
		}
	}
}

func TestForRunsConcurrently(t *testing.T) {
	// Two goroutines must be inside fn at once for the first two chunks to finish: one
	// waits for the other to arrive.
	arrived := make(chan struct{})
	var first atomic.Bool
	For(2*chunk, 2, func(i int) {
		if i%chunk != 0 {
			return
		}
		if first.CompareAndSwap(false, true) {
			<-arrived
			return
		}
		close(arrived)
	})
}
