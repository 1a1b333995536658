package commitgraph

import "encoding/binary"

// gdo2Flag marks a GDA2 entry that indexes GDO2 instead of holding the
// offset itself.
const gdo2Flag = 0x80000000

// Generation returns the generation number of the commit at pos, as
// Commit.Generation, without decoding the rest of the commit.
func (g *Graph) Generation(pos uint32) (uint64, error) {
	l, i, err := g.locate(pos)
	if err != nil {
		return 0, err
	}
	return g.generation(l, i)
}

// generation is the corrected commit date (commit time plus the GDA2
// offset, or the GDO2 entry it points to) when every layer has GDA2, else
// the topological level.
func (g *Graph) generation(l *layer, i uint32) (uint64, error) {
	level, when := levelAndTime(l.cdat[i*cdatEntry:])
	if !g.genV2 {
		return uint64(level), nil
	}
	off := uint64(binary.BigEndian.Uint32(l.gda2[i*4:]))
	if off&gdo2Flag != 0 {
		k := (off &^ gdo2Flag) * 8
		if k+8 > uint64(len(l.gdo2)) {
			return 0, corrupt(l.name, "commit %d's generation offset points past the GDO2 chunk", l.base+i)
		}
		off = binary.BigEndian.Uint64(l.gdo2[k:])
	}
	return uint64(when) + off, nil
}
