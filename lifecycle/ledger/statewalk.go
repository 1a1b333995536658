package ledger

import (
	"time"

	"github.com/skillgit/skillgit/gitstore"
)

// stateWalk is the last walk of the publish branch's first-parent line that NewStateCtx made:
// from tip back to since, the merges and reverts it found. A batch of publishes asks, for
// every candidate, what happened since it was proposed; each publish adds one merge, so the
// next walk reads that merge and takes the rest from here instead of walking the whole batch
// again. The maps are never changed once here.
type stateWalk struct {
	tip              gitstore.Hash
	since            time.Time
	merged, reverted map[gitstore.Hash]gitstore.Hash
}

// lastWalk returns the last walk when it reaches back at least to since, else nil.
func (l *Ledger) lastWalk(since time.Time) *stateWalk {
	l.mu.Lock()
	defer l.mu.Unlock()
	if w := l.walked; w != nil && !w.since.After(since) {
		return w
	}
	return nil
}

// rememberWalk keeps w as the last walk.
func (l *Ledger) rememberWalk(w *stateWalk) {
	l.mu.Lock()
	l.walked = w
	l.mu.Unlock()
}

// extend adds to st what w found, below the commits st was walked over: st's own entries are
// newer, and win.
func (w *stateWalk) extend(st *StateCtx) {
	for k, v := range w.merged {
		if _, ok := st.merged[k]; !ok {
			st.merged[k] = v
		}
	}
	for k, v := range w.reverted {
		if _, ok := st.reverted[k]; !ok {
			st.reverted[k] = v
		}
	}
}
