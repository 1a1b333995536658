package gitstore

import (
	"maps"
	"slices"
	"sync"
)

// MergeBase returns the best common ancestor of commits a and b, as
// `git merge-base a b` does: a commit reachable from both that is not an
// ancestor of another such commit. When there are several (after
// criss-cross merges), it returns the one with the newest committer date,
// which may differ from the one git prints. It returns ZeroHash and no
// error when the histories share no commit, or when a or b is ZeroHash.
//
// The walk goes back from both commits at once, newest committer date
// first, and stops as soon as every commit left to visit is known to be
// an ancestor of a common ancestor already found, so its cost grows with
// the commits since the fork, not with the length of the history. In a
// shallow clone, history ends at the shallow boundary. When git's
// commit-graph holds both commits, the graph answers instead, in
// generation order, without reading commit objects.
func (r *History) MergeBase(a, b Hash) (Hash, error) {
	if a.IsZero() || b.IsZero() {
		return ZeroHash, nil
	}
	if base, ok := r.graphMergeBase(a, b); ok {
		return base, nil
	}
	w, err := r.newAncestryWalk()
	if err != nil {
		return ZeroHash, err
	}
	if err := w.paint(a, b, ZeroHash); err != nil {
		return ZeroHash, err
	}
	return r.bestBase(w.candidates())
}

// IsAncestor reports whether commit a is reachable from commit b; a commit
// is its own ancestor. ZeroHash is no commit and is no ancestor.
func (r *History) IsAncestor(a, b Hash) (bool, error) {
	if a.IsZero() || b.IsZero() {
		return false, nil
	}
	if in, ok := r.reach.answer(a, b); ok {
		return in, nil
	}
	if in, known, start := r.growth.answer(a, b); known {
		if in {
			return true, nil
		}
		return r.IsAncestor(a, start)
	}
	if in, ok := r.graphIsAncestor(a, b); ok {
		// A batch asks the same pair again for each publish, and the graph's walk for
		// it costs the length of the history between them.
		r.reach.record(a, b, in)
		return in, nil
	}
	w, err := r.newAncestryWalk()
	if err != nil {
		return false, err
	}
	w.reaches = r.reach.of(a)
	if err := w.paint(a, b, a); err != nil {
		return false, err
	}
	in := w.reached || w.nodes[a].flags&fromB != 0
	r.reach.record(a, b, in)
	return in, nil
}

// reachCacheSize bounds the pairs of commits a repository remembers as reaching one another.
const reachCacheSize = 1 << 16

// reachCache remembers, for a commit a, commits b found to reach it: the history never
// changes, so a later walk back from a commit that meets such a b stops there. A batch of
// publishes asks whether the same candidate base is an ancestor of a publish branch that grew
// by one merge since the last question; that costs one step instead of a walk over the batch.
// It also remembers the pairs found not to: a publish asks whether its candidate's tip is
// already on the publish branch, and every later publish of the batch, reading back the
// merges made since, asks it again of that merge's first parent.
type reachCache struct {
	mu  sync.Mutex
	n   int
	m   map[Hash]map[Hash]bool
	not map[[2]Hash]bool
}

// answer returns whether a is known to be an ancestor of b, or known not to be; ok is false
// when neither is known.
func (c *reachCache) answer(a, b Hash) (in, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m[a][b] {
		return true, true
	}
	return false, c.not[[2]Hash{a, b}]
}

// of returns a copy of the commits known to reach a, or nil.
func (c *reachCache) of(a Hash) map[Hash]bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m[a]) == 0 {
		return nil
	}
	return maps.Clone(c.m[a])
}

func (c *reachCache) add(a, b Hash) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.room()
	if c.m[a] == nil {
		c.m[a] = map[Hash]bool{}
	}
	if !c.m[a][b] {
		c.m[a][b] = true
		c.n++
	}
}

// record remembers whether a is an ancestor of b.
func (c *reachCache) record(a, b Hash, in bool) {
	if in {
		c.add(a, b)
	} else {
		c.addNot(a, b)
	}
}

// addNot remembers that a is not an ancestor of b.
func (c *reachCache) addNot(a, b Hash) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.room()
	if k := [2]Hash{a, b}; !c.not[k] {
		c.not[k] = true
		c.n++
	}
}

// room starts the cache afresh when it is full; the caller holds mu.
func (c *reachCache) room() {
	if c.m == nil || c.n >= reachCacheSize {
		c.m, c.not, c.n = map[Hash]map[Hash]bool{}, map[[2]Hash]bool{}, 0
	}
}

// bestBase returns the newest of the candidates that is not an ancestor
// of another one. The walk finds such redundant candidates only when
// committer dates go backwards along the history.
func (r *History) bestBase(candidates []Hash) (Hash, error) {
	for i, c := range candidates {
		redundant, err := r.ancestorOfAny(c, slices.Delete(slices.Clone(candidates), i, i+1))
		if err != nil || !redundant {
			return c, err
		}
	}
	return ZeroHash, nil
}

// ancestorOfAny reports whether c is an ancestor of one of others.
func (r *History) ancestorOfAny(c Hash, others []Hash) (bool, error) {
	for _, o := range others {
		if ok, err := r.IsAncestor(c, o); err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}
