package commitgraph

import (
	"encoding/binary"
	"iter"
)

// FirstParent returns the first parent of the commit at pos; ok is false
// for a root commit.
func (g *Graph) FirstParent(pos uint32) (parent uint32, ok bool, err error) {
	l, i, err := g.locate(pos)
	if err != nil {
		return 0, false, err
	}
	p := binary.BigEndian.Uint32(l.cdat[i*cdatEntry+hashSize:])
	if p == parentNone {
		return 0, false, nil
	}
	if p >= g.total {
		return 0, false, corrupt(l.name, "commit %d has parent position %d", pos, p)
	}
	return p, true, nil
}

// FirstParents iterates over start and its first-parent ancestors, newest
// first, as git log --first-parent does. A malformed graph ends the walk
// with a non-nil error, including a first-parent chain that loops (longer
// than the graph).
func (g *Graph) FirstParents(start uint32) iter.Seq2[uint32, error] {
	return func(yield func(uint32, error) bool) {
		pos := start
		if _, _, err := g.locate(pos); err != nil {
			yield(0, err)
			return
		}
		for steps := uint32(0); ; steps++ {
			if steps >= g.total {
				yield(0, corrupt(g.layers[len(g.layers)-1].name, "first-parent chain from %d loops", start))
				return
			}
			if !yield(pos, nil) {
				return
			}
			next, ok, err := g.FirstParent(pos)
			if err != nil {
				yield(0, err)
				return
			}
			if !ok {
				return
			}
			pos = next
		}
	}
}
