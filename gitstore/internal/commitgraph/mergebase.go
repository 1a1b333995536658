package commitgraph

import (
	"slices"
)

// Marks a merge-base walk paints on commits.
const (
	paintA      = 1 << iota // reachable from a
	paintB                  // reachable from b
	paintStale              // below a common ancestor already found
	paintResult             // recorded as a candidate
)

// MergeBase returns the best common ancestors of the commits at a and b,
// the commits git merge-base --all prints: common ancestors that are not
// ancestors of another common ancestor. It is empty when the histories
// are unrelated. The walk goes down in generation order and stops as soon
// as every queued commit lies below a common ancestor already found.
func (g *Graph) MergeBase(a, b uint32) ([]uint32, error) {
	if a == b {
		if _, _, err := g.locate(a); err != nil {
			return nil, err
		}
		return []uint32{a}, nil
	}
	candidates, err := g.paintDown(a, b)
	if err != nil || len(candidates) < 2 {
		return candidates, err
	}
	return g.removeRedundant(candidates)
}

// paintDown paints the ancestors of a and of b, popping commits by
// generation, and collects the commits reached from both whose
// descendants on the way were not themselves common.
func (g *Graph) paintDown(a, b uint32) ([]uint32, error) {
	paint := map[uint32]uint8{a: paintA, b: paintB}
	var q genQueue
	if err := q.push(g, a); err != nil {
		return nil, err
	}
	if err := q.push(g, b); err != nil {
		return nil, err
	}
	var result []uint32
	var parents []uint32
	for hasLive(q, paint) {
		c := q.pop()
		flags := paint[c.pos] & (paintA | paintB | paintStale)
		if flags == paintA|paintB {
			if paint[c.pos]&paintResult == 0 {
				paint[c.pos] |= paintResult
				result = append(result, c.pos)
			}
			flags |= paintStale
		}
		var err error
		if parents, err = g.Parents(c.pos, parents[:0]); err != nil {
			return nil, err
		}
		for _, p := range parents {
			if paint[p]&flags == flags {
				continue
			}
			paint[p] |= flags
			if err := q.push(g, p); err != nil {
				return nil, err
			}
		}
	}
	return result, nil
}

// hasLive reports whether some queued commit is not yet stale.
func hasLive(q genQueue, paint map[uint32]uint8) bool {
	for _, c := range q {
		if paint[c.pos]&paintStale == 0 {
			return true
		}
	}
	return false
}

// removeRedundant drops every candidate that is an ancestor of another.
// A search for candidate c skips commits whose generation is not above
// c's: they cannot have c as an ancestor.
func (g *Graph) removeRedundant(candidates []uint32) ([]uint32, error) {
	keys := make([]queued, len(candidates))
	for i, c := range candidates {
		k, err := g.key(c)
		if err != nil {
			return nil, err
		}
		keys[i] = k
	}
	var kept []queued
	for i, c := range keys {
		below, err := g.reachesFromOthers(keys, i)
		if err != nil {
			return nil, err
		}
		if !below {
			kept = append(kept, c)
		}
	}
	slices.SortFunc(kept, func(x, y queued) int {
		if genQueue([]queued{x, y}).Less(0, 1) {
			return -1
		}
		return 1
	})
	out := make([]uint32, len(kept))
	for i, k := range kept {
		out[i] = k.pos
	}
	return out, nil
}

// reachesFromOthers reports whether keys[target] is an ancestor of any
// other candidate.
func (g *Graph) reachesFromOthers(keys []queued, target int) (bool, error) {
	goal := keys[target]
	seen := map[uint32]bool{}
	var stack []uint32
	for i, k := range keys {
		if i != target && k.gen > goal.gen {
			stack = append(stack, k.pos)
			seen[k.pos] = true
		}
	}
	var parents []uint32
	for len(stack) > 0 {
		pos := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		var err error
		if parents, err = g.Parents(pos, parents[:0]); err != nil {
			return false, err
		}
		for _, p := range parents {
			if p == goal.pos {
				return true, nil
			}
			if seen[p] {
				continue
			}
			seen[p] = true
			gen, err := g.Generation(p)
			if err != nil {
				return false, err
			}
			if gen > goal.gen {
				stack = append(stack, p)
			}
		}
	}
	return false, nil
}
