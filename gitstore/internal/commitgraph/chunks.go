package commitgraph

import (
	"encoding/binary"
	"fmt"
)

// Sizes fixed by the commit-graph format (hash version 1, SHA-1).
const (
	hashSize      = 20
	headerSize    = 8
	chunkEntry    = 12
	fanoutSize    = 256 * 4
	cdatEntry     = hashSize + 16
	bloomHeader   = 12
	signature     = "CGPH"
	formatVersion = 1
	hashSHA1      = 1
)

// Chunk ids, big-endian four-character codes.
const (
	chunkOIDF = 0x4f494446 // "OIDF" fanout
	chunkOIDL = 0x4f49444c // "OIDL" sorted commit ids
	chunkCDAT = 0x43444154 // "CDAT" commit data
	chunkEDGE = 0x45444745 // "EDGE" extra parents of octopus merges
	chunkGDA2 = 0x47444132 // "GDA2" corrected commit date offsets
	chunkGDO2 = 0x47444f32 // "GDO2" offsets that overflow 31 bits
	chunkBIDX = 0x42494458 // "BIDX" Bloom filter index
	chunkBDAT = 0x42444154 // "BDAT" Bloom filter data
	chunkBASE = 0x42415345 // "BASE" ids of the base graph files
)

// readChunks parses the chunk table that follows the header. It returns
// each chunk's bytes by id; every chunk lies between the end of the table
// and the trailing checksum, and chunks follow one another in the file.
func readChunks(file string, data []byte, count int) (map[uint32][]byte, error) {
	tableEnd := uint64(headerSize + (count+1)*chunkEntry)
	limit := uint64(len(data) - hashSize)
	if tableEnd > limit {
		return nil, corrupt(file, "chunk table of %d entries runs past the end of the file", count)
	}
	chunks := make(map[uint32][]byte, count)
	for i := 0; i < count; i++ {
		at := headerSize + i*chunkEntry
		id := binary.BigEndian.Uint32(data[at:])
		start := binary.BigEndian.Uint64(data[at+4:])
		end := binary.BigEndian.Uint64(data[at+chunkEntry+4:])
		if id == 0 {
			return nil, corrupt(file, "chunk table ends early at entry %d", i)
		}
		if start < tableEnd || end < start || end > limit {
			return nil, corrupt(file, "chunk %s spans bytes %d-%d outside %d-%d",
				chunkName(id), start, end, tableEnd, limit)
		}
		if _, dup := chunks[id]; dup {
			return nil, corrupt(file, "chunk %s appears twice", chunkName(id))
		}
		chunks[id] = data[start:end:end]
	}
	if last := binary.BigEndian.Uint32(data[headerSize+count*chunkEntry:]); last != 0 {
		return nil, corrupt(file, "chunk table has no terminating entry")
	}
	return chunks, nil
}

// chunkName spells a chunk id for messages.
func chunkName(id uint32) string {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], id)
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return fmt.Sprintf("0x%08x", id)
		}
	}
	return string(b[:])
}

// beUint32 reads a big-endian 32-bit number.
func beUint32(b []byte) uint32 { return binary.BigEndian.Uint32(b) }
