package commitgraph

import (
	"fmt"
	"sync"
	"testing"
)

// TestConcurrentReaders runs every query from several goroutines at once
// on one Graph and compares each answer with a single-threaded run.
func TestConcurrentReaders(t *testing.T) {
	g := openFixture(t, "split")
	answers := func() []string {
		var out []string
		for pos := uint32(0); pos < g.Len(); pos++ {
			c, err := g.Commit(pos)
			bases, err2 := g.MergeBase(pos, g.Len()-1-pos)
			maybe, known := g.MaybeChanged(pos, "skills/pdf/SKILL.md")
			found, _ := g.Lookup(g.ID(pos))
			out = append(out, fmt.Sprint(c, err, bases, err2, maybe, known, found))
		}
		return out
	}
	want := answers()
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got := answers()
			for i := range want {
				if got[i] != want[i] {
					errs <- fmt.Sprintf("commit %d: %s, single-threaded %s", i, got[i], want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
