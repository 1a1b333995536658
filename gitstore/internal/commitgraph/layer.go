package commitgraph

import "encoding/binary"

// layer is one parsed graph file: the single commit-graph or one file of a
// split chain. Slices point into the file's mapped bytes.
type layer struct {
	name    string // path, for messages
	data    []byte // whole file
	base    uint32 // global position of this layer's first commit
	n       uint32 // commits in this layer
	fanout  []byte
	oids    []byte
	cdat    []byte
	edge    []byte
	gda2    []byte
	gdo2    []byte
	baseIDs []byte
	bloom   *bloomIndex // nil when the layer has no usable filters
	release func() error
	drop    func() // see fileMap
}

// parseLayer checks the header and chunk table of a graph file and
// slices out its chunks.
func parseLayer(name string, data []byte) (*layer, error) {
	if len(data) < headerSize+chunkEntry+hashSize {
		return nil, corrupt(name, "file of %d bytes is too short", len(data))
	}
	if string(data[:4]) != signature {
		return nil, corrupt(name, "signature %q is not %q", data[:4], signature)
	}
	if data[4] != formatVersion {
		return nil, unsupported(name, "version %d (only version %d is read)", data[4], formatVersion)
	}
	if data[5] != hashSHA1 {
		return nil, unsupported(name, "hash version %d (only SHA-1 graphs are read)", data[5])
	}
	chunks, err := readChunks(name, data, int(data[6]))
	if err != nil {
		return nil, err
	}
	l := &layer{name: name, data: data}
	if err := l.setCommitChunks(chunks); err != nil {
		return nil, err
	}
	if err := l.setOptionalChunks(chunks, int(data[7])); err != nil {
		return nil, err
	}
	return l, nil
}

// setCommitChunks reads the three chunks every graph has and checks their
// sizes against the commit count given by the fanout.
func (l *layer) setCommitChunks(chunks map[uint32][]byte) error {
	l.fanout = chunks[chunkOIDF]
	if len(l.fanout) != fanoutSize {
		return corrupt(l.name, "fanout chunk OIDF has %d bytes, want %d", len(l.fanout), fanoutSize)
	}
	prev := uint32(0)
	for i := 0; i < 256; i++ {
		v := binary.BigEndian.Uint32(l.fanout[i*4:])
		if v < prev {
			return corrupt(l.name, "fanout decreases at byte %02x", i)
		}
		prev = v
	}
	l.n = prev
	l.oids = chunks[chunkOIDL]
	if uint64(len(l.oids)) != uint64(l.n)*hashSize {
		return corrupt(l.name, "id chunk OIDL has %d bytes for %d commits", len(l.oids), l.n)
	}
	l.cdat = chunks[chunkCDAT]
	if uint64(len(l.cdat)) != uint64(l.n)*cdatEntry {
		return corrupt(l.name, "commit data chunk CDAT has %d bytes for %d commits", len(l.cdat), l.n)
	}
	return nil
}

// setOptionalChunks reads the extra-parents, generation, Bloom and base
// chunks when present, checking their sizes.
func (l *layer) setOptionalChunks(chunks map[uint32][]byte, numBases int) error {
	l.edge = chunks[chunkEDGE]
	if len(l.edge)%4 != 0 {
		return corrupt(l.name, "extra-parents chunk EDGE has %d bytes, not a multiple of 4", len(l.edge))
	}
	if g, ok := chunks[chunkGDA2]; ok {
		if uint64(len(g)) != uint64(l.n)*4 {
			return corrupt(l.name, "generation chunk GDA2 has %d bytes for %d commits", len(g), l.n)
		}
		l.gda2 = g
	}
	l.gdo2 = chunks[chunkGDO2]
	if len(l.gdo2)%8 != 0 {
		return corrupt(l.name, "generation overflow chunk GDO2 has %d bytes, not a multiple of 8", len(l.gdo2))
	}
	if numBases > 0 {
		l.baseIDs = chunks[chunkBASE]
		if len(l.baseIDs) != numBases*hashSize {
			return corrupt(l.name, "base chunk BASE has %d bytes for %d base graphs", len(l.baseIDs), numBases)
		}
	}
	l.bloom = newBloomIndex(l.n, chunks[chunkBIDX], chunks[chunkBDAT])
	return nil
}

// numBases is the count of base graphs the header declares.
func (l *layer) numBases() int { return len(l.baseIDs) / hashSize }

// checksum is the file's trailing hash.
func (l *layer) checksum() []byte { return l.data[len(l.data)-hashSize:] }

// oid returns the id of the commit at local index i.
func (l *layer) oid(i uint32) []byte {
	return l.oids[i*hashSize : (i+1)*hashSize : (i+1)*hashSize]
}
