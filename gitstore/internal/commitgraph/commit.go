package commitgraph

import "encoding/binary"

// Parent position markers in CDAT and EDGE.
const (
	parentNone  = 0x70000000 // no parent in this slot
	parentExtra = 0x80000000 // second slot: index into EDGE; EDGE: last entry
	parentMask  = 0x7fffffff
)

// Commit is what the graph records about one commit.
type Commit struct {
	// Pos is the commit's position in the graph.
	Pos uint32
	// RootTree is the id of the commit's tree.
	RootTree [20]byte
	// Parents are the positions of the parents, in order.
	Parents []uint32
	// CommitTime is the committer time in seconds since the epoch.
	CommitTime int64
	// Level is the topological level: 1 for a root commit, else one more
	// than its parents' highest. Zero means the writer did not compute it.
	Level uint32
	// Generation is the corrected commit date when the graph carries it
	// (GenerationVersion 2), else the topological level. It is larger
	// than every parent's.
	Generation uint64
}

// Commit returns the record of the commit at pos.
func (g *Graph) Commit(pos uint32) (Commit, error) {
	l, i, err := g.locate(pos)
	if err != nil {
		return Commit{}, err
	}
	c := Commit{Pos: pos}
	rec := l.cdat[i*cdatEntry : (i+1)*cdatEntry]
	copy(c.RootTree[:], rec)
	if c.Parents, err = g.appendParents(nil, l, i); err != nil {
		return Commit{}, err
	}
	c.Level, c.CommitTime = levelAndTime(rec)
	if c.Generation, err = g.generation(l, i); err != nil {
		return Commit{}, err
	}
	return c, nil
}

// Parents appends the parent positions of the commit at pos to buf; a walk
// can reuse buf to avoid allocating.
func (g *Graph) Parents(pos uint32, buf []uint32) ([]uint32, error) {
	l, i, err := g.locate(pos)
	if err != nil {
		return buf, err
	}
	return g.appendParents(buf, l, i)
}

// ParentIDs returns the ids of the parents of the commit at pos.
func (g *Graph) ParentIDs(pos uint32) ([][20]byte, error) {
	parents, err := g.Parents(pos, nil)
	if err != nil {
		return nil, err
	}
	ids := make([][20]byte, len(parents))
	for k, p := range parents {
		ids[k] = g.ID(p)
	}
	return ids, nil
}

// appendParents decodes the two parent slots of CDAT entry i and, for an
// octopus merge, its run of EDGE entries. Every position is checked
// against the graph's size.
func (g *Graph) appendParents(buf []uint32, l *layer, i uint32) ([]uint32, error) {
	rec := l.cdat[i*cdatEntry:]
	p1 := binary.BigEndian.Uint32(rec[hashSize:])
	p2 := binary.BigEndian.Uint32(rec[hashSize+4:])
	if p1 != parentNone {
		if p1 >= g.total {
			return buf, corrupt(l.name, "commit %d has parent position %d", l.base+i, p1)
		}
		buf = append(buf, p1)
	}
	switch {
	case p2 == parentNone:
		return buf, nil
	case p2&parentExtra == 0:
		if p2 >= g.total {
			return buf, corrupt(l.name, "commit %d has parent position %d", l.base+i, p2)
		}
		return append(buf, p2), nil
	}
	return g.appendEdges(buf, l, i, p2&parentMask)
}

// appendEdges appends the EDGE run that starts at entry at, which ends with
// an entry whose high bit is set.
func (g *Graph) appendEdges(buf []uint32, l *layer, i, at uint32) ([]uint32, error) {
	for k := uint64(at) * 4; ; k += 4 {
		if k+4 > uint64(len(l.edge)) {
			return buf, corrupt(l.name, "commit %d's extra parents run past the EDGE chunk", l.base+i)
		}
		v := binary.BigEndian.Uint32(l.edge[k:])
		if v&parentMask >= g.total {
			return buf, corrupt(l.name, "commit %d has parent position %d", l.base+i, v&parentMask)
		}
		buf = append(buf, v&parentMask)
		if v&parentExtra != 0 {
			return buf, nil
		}
	}
}

// levelAndTime decodes the last eight bytes of a CDAT entry: a 30-bit
// topological level and a 34-bit commit time.
func levelAndTime(rec []byte) (uint32, int64) {
	hi := binary.BigEndian.Uint32(rec[hashSize+8:])
	lo := binary.BigEndian.Uint32(rec[hashSize+12:])
	return hi >> 2, int64(hi&3)<<32 | int64(lo)
}
