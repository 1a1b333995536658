package commitgraph

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// maxCommits is the largest commit count the format can address: parent
// positions at and above 0x70000000 are markers.
const maxCommits = parentNone

// Graph is an opened commit-graph, one layer or a split chain. Commits
// are numbered by position: the base layer's commits in id order, then
// each following layer's. It is safe for concurrent use; Close must not
// run while other calls are in flight.
type Graph struct {
	layers []*layer // base first
	total  uint32
	genV2  bool
}

// newGraph numbers the layers' commits and decides the generation
// version: corrected commit dates only when every layer carries them, as
// git decides.
func newGraph(layers []*layer) (*Graph, error) {
	g := &Graph{layers: layers, genV2: true}
	for _, l := range layers {
		if uint64(g.total)+uint64(l.n) > maxCommits {
			closeLayers(layers)
			return nil, corrupt(l.name, "the graph holds more than %d commits", maxCommits)
		}
		l.base = g.total
		g.total += l.n
		if l.gda2 == nil {
			g.genV2 = false
		}
	}
	return g, nil
}

// Close releases the graph's files. The Graph must not be used afterwards.
func (g *Graph) Close() error {
	return closeLayers(g.layers)
}

// Release takes the pages of the graph's files out of the process's resident memory. The
// graph stays usable: a later read brings back what it reads. A graph replaced by a newer
// one, whose readers are few, then holds no memory of its own while it stays open.
func (g *Graph) Release() {
	for _, l := range g.layers {
		if l.drop != nil {
			l.drop()
		}
	}
}

// Len returns the number of commits in the graph.
func (g *Graph) Len() uint32 { return g.total }

// Layers returns the number of files the graph was read from.
func (g *Graph) Layers() int { return len(g.layers) }

// GenerationVersion returns 2 when Generation gives corrected commit
// dates and 1 when it gives topological levels.
func (g *Graph) GenerationVersion() int {
	if g.genV2 {
		return 2
	}
	return 1
}

// locate returns the layer holding pos and the commit's index in it.
func (g *Graph) locate(pos uint32) (*layer, uint32, error) {
	for i := len(g.layers) - 1; i >= 0; i-- {
		l := g.layers[i]
		if pos >= l.base {
			if pos-l.base < l.n {
				return l, pos - l.base, nil
			}
			break
		}
	}
	return nil, 0, fmt.Errorf("commitgraph: position %d is outside the graph's %d commits", pos, g.total)
}

// Lookup returns the position of the commit with id, searching the top
// layer first; ok is false when the graph does not hold it.
func (g *Graph) Lookup(id [20]byte) (pos uint32, ok bool) {
	for i := len(g.layers) - 1; i >= 0; i-- {
		if at, found := g.layers[i].find(id[:]); found {
			return g.layers[i].base + at, true
		}
	}
	return 0, false
}

// find binary-searches the layer's ids within id's fanout bucket.
func (l *layer) find(id []byte) (uint32, bool) {
	lo := uint32(0)
	if id[0] > 0 {
		lo = binary.BigEndian.Uint32(l.fanout[(int(id[0])-1)*4:])
	}
	hi := binary.BigEndian.Uint32(l.fanout[int(id[0])*4:])
	for lo < hi {
		mid := lo + (hi-lo)/2
		switch c := bytes.Compare(l.oid(mid), id); {
		case c == 0:
			return mid, true
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false
}

// ID returns the commit id at pos, or the zero id when pos is outside the
// graph.
func (g *Graph) ID(pos uint32) [20]byte {
	var id [20]byte
	if l, i, err := g.locate(pos); err == nil {
		copy(id[:], l.oid(i))
	}
	return id
}
