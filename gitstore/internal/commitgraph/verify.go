package commitgraph

import (
	"bytes"
	"crypto/sha1"
)

// Verify reads every byte of the graph's files: it checks each file's
// trailing SHA-1 checksum, that its commit ids are sorted without
// duplicates and that the fanout matches their first bytes. Open skips
// these checks to stay cheap; a caller that distrusts the files (or wants
// git commit-graph verify's guarantees) calls Verify once.
func (g *Graph) Verify() error {
	for _, l := range g.layers {
		sum := sha1.Sum(l.data[:len(l.data)-hashSize])
		if !bytes.Equal(sum[:], l.checksum()) {
			return corrupt(l.name, "trailing checksum does not match the contents")
		}
		if err := l.verifyIDs(); err != nil {
			return err
		}
	}
	return nil
}

// verifyIDs checks the order of the ids and the fanout's counts.
func (l *layer) verifyIDs() error {
	var counts [256]uint32
	for i := uint32(0); i < l.n; i++ {
		id := l.oid(i)
		if i > 0 && bytes.Compare(l.oid(i-1), id) >= 0 {
			return corrupt(l.name, "commit ids are out of order at %d", i)
		}
		counts[id[0]]++
	}
	sum := uint32(0)
	for b := 0; b < 256; b++ {
		sum += counts[b]
		if got := beUint32(l.fanout[b*4:]); got != sum {
			return corrupt(l.name, "fanout for byte %02x is %d, the ids say %d", b, got, sum)
		}
	}
	return nil
}
