package ledger

import (
	"maps"
	"time"

	"github.com/skillgit/skillgit/gitstore"
)

// stateWalk is the last walk of the publish branch's first-parent line that NewStateCtx made:
// from tip back to since, the merges and reverts it found. A batch of publishes asks, for
// every candidate, what happened since it was proposed; each publish adds one merge, so the
// next walk reads that merge and takes the rest from here instead of walking the whole batch
// again. Its layers are never changed once here.
type stateWalk struct {
	tip              gitstore.Hash
	since            time.Time
	merged, reverted hashLayers
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

// hashLayers maps commit ids to commit ids, as a walk of the publish branch finds them: the
// newest walk's own map on top of the layers older walks left, which are never changed once
// shared. Each publish of a batch walks one merge, so a walk adds a layer of one entry; a
// layer at least half the size of the one below is merged into it, which keeps the layers
// to the logarithm of the entries and copies each entry that many times at most, where
// copying every entry into every walk grew with the square of the batch.
type hashLayers struct {
	own map[gitstore.Hash]gitstore.Hash
	// below are the older layers, oldest first.
	below []map[gitstore.Hash]gitstore.Hash
}

func newHashLayers() hashLayers { return hashLayers{own: map[gitstore.Hash]gitstore.Hash{}} }

// get looks k up, newest layer first.
func (m hashLayers) get(k gitstore.Hash) (gitstore.Hash, bool) {
	if v, ok := m.own[k]; ok {
		return v, true
	}
	for i := len(m.below) - 1; i >= 0; i-- {
		if v, ok := m.below[i][k]; ok {
			return v, true
		}
	}
	return gitstore.ZeroHash, false
}

// flat returns every key with the value the newest layer holding it gives, in one map.
func (m hashLayers) flat() map[gitstore.Hash]gitstore.Hash {
	out := map[gitstore.Hash]gitstore.Hash{}
	for _, l := range m.below {
		maps.Copy(out, l)
	}
	maps.Copy(out, m.own)
	return out
}

// over returns m's entries on top of base's, as layers that neither m nor base changes again.
func (m hashLayers) over(base hashLayers) hashLayers {
	layers := append([]map[gitstore.Hash]gitstore.Hash(nil), base.below...)
	for _, l := range []map[gitstore.Hash]gitstore.Hash{base.own, m.own} {
		if len(l) > 0 {
			layers = append(layers, l)
		}
	}
	for n := len(layers); n >= 2 && 2*len(layers[n-1]) >= len(layers[n-2]); n = len(layers) {
		joined := maps.Clone(layers[n-2])
		maps.Copy(joined, layers[n-1])
		layers = append(layers[:n-2], joined)
	}
	return hashLayers{own: map[gitstore.Hash]gitstore.Hash{}, below: layers}
}
