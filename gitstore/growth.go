package gitstore

import (
	"errors"
	"sync"
)

// growth is what a repository knows of one branch that this process moves commit by commit,
// as a batch of publishes does: the commit it started from, each tip it moved to since (by
// step), and every commit those steps brought into the branch's history, with the step that
// brought it. A commit is an ancestor of the tip of step i when a step up to i brought it or
// it is an ancestor of the start, so asking whether a candidate is already on the branch
// costs one walk from the start, not a walk over every merge of the batch.
type growth struct {
	mu     sync.Mutex
	start  Hash
	tips   map[Hash]int // tip -> its step, from 1
	bornAt map[Hash]int // commit brought -> the step that brought it
	last   Hash
}

// maxGrowth bounds the commits a growth remembers; past it, it starts again from the tip.
const maxGrowth = 1 << 20

// Grew tells the repository that this process moved a branch from old to tip, a commit whose
// first parent is old. Later questions whether a commit is an ancestor of tip, or of an
// earlier tip recorded since the same start, are answered from what each step brought. A
// move from another tip than the last one recorded starts afresh from old.
func (r *History) Grew(old, tip Hash) error {
	g := &r.growth
	g.mu.Lock()
	if g.last != old || g.last.IsZero() || len(g.bornAt) > maxGrowth {
		g.start, g.last, g.tips, g.bornAt = old, old, map[Hash]int{}, map[Hash]int{}
	}
	step, start := len(g.tips)+1, g.start
	g.mu.Unlock()
	brought, err := r.broughtBy(tip, old, start)
	g.mu.Lock()
	defer g.mu.Unlock()
	if err != nil || g.last != old {
		g.last = ZeroHash // another move raced this one, or the walk failed: forget
		return err
	}
	for _, h := range brought {
		if _, ok := g.bornAt[h]; !ok {
			g.bornAt[h] = step
		}
	}
	g.tips[tip], g.last = step, tip
	return nil
}

// broughtBy returns tip and the commits of its history that are not in old's: those below
// its other parents, down to the commits the growth already holds or the start's history.
func (r *History) broughtBy(tip, old, start Hash) ([]Hash, error) {
	parents, _, err := (*Objects)(r).commitHeader(tip)
	if err != nil {
		return nil, err
	}
	if len(parents) == 0 || parents[0] != old {
		return nil, errNotGrowth
	}
	out, seen := []Hash{tip}, map[Hash]bool{tip: true}
	queue := append([]Hash(nil), parents[1:]...)
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		if seen[h] || r.growth.holds(h) {
			continue
		}
		seen[h] = true
		in, err := r.IsAncestor(h, start)
		if err != nil {
			return nil, err
		}
		if in {
			continue
		}
		ps, _, err := (*Objects)(r).commitHeader(h)
		if err != nil {
			return nil, err
		}
		out, queue = append(out, h), append(queue, ps...)
	}
	return out, nil
}

// errNotGrowth says that a tip recorded as grown does not have the old tip as first parent.
var errNotGrowth = errors.New("gitstore: the new tip's first parent is not the old tip")

// holds reports whether a step recorded brought h.
func (g *growth) holds(h Hash) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	_, ok := g.bornAt[h]
	return ok
}

// answer returns whether a is an ancestor of b when b is a tip recorded since the start:
// known says whether the growth can tell, and start, when known is true and in false, is
// the commit whose history the caller must still search.
func (g *growth) answer(a, b Hash) (in, known bool, start Hash) {
	g.mu.Lock()
	defer g.mu.Unlock()
	step, ok := g.tips[b]
	if !ok {
		return false, false, ZeroHash
	}
	if born, ok := g.bornAt[a]; ok && born <= step {
		return true, true, ZeroHash
	}
	return false, true, g.start
}
