// Package parallel runs the iterations of a loop on several goroutines.
package parallel

import (
	"sync"
	"sync/atomic"
)

// chunk is how many iterations a goroutine takes at a time: enough that taking them costs
// little next to running them, few enough that the goroutines finish together.
const chunk = 32

// For calls fn(i) for every i in [0, n) on up to workers goroutines and returns when all
// calls have returned. The goroutines take the indexes in ascending chunks; fn must be safe
// to call concurrently. With workers below 2, or n no more than one chunk, it runs in order
// on the calling goroutine.
func For(n, workers int, fn func(i int)) {
	if workers < 2 || n <= chunk {
		for i := range n {
			fn(i)
		}
		return
	}
	workers = min(workers, (n+chunk-1)/chunk)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				start := int(next.Add(chunk)) - chunk
				if start >= n {
					return
				}
				for i := start; i < min(start+chunk, n); i++ {
					fn(i)
				}
			}
		})
	}
	wg.Wait()
}
