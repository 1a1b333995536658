package commitgraph

import "encoding/binary"

// Seeds of the two hashes that git combines into a path's bit positions.
const (
	bloomSeed0 = 0x293ae76f
	bloomSeed1 = 0x7e646e2c
	// maxBloomHashes bounds the per-query work a file can ask for; git
	// writes 7.
	maxBloomHashes = 64
)

// bloomIndex is one layer's changed-path filters: BIDX gives, for each
// commit, the end offset of its filter in BDAT's data.
type bloomIndex struct {
	version   uint32 // hash version, 1 or 2
	numHashes uint32
	// bitsPerEntry is the writer's sizing, kept for reference: a reader
	// needs only each filter's length.
	bitsPerEntry uint32
	index        []byte // BIDX
	data         []byte // BDAT after its header
}

// newBloomIndex returns the layer's filters, or nil when the layer has
// none or uses settings this package cannot read (git ignores those too).
func newBloomIndex(n uint32, bidx, bdat []byte) *bloomIndex {
	if bidx == nil || bdat == nil || uint64(len(bidx)) != uint64(n)*4 || len(bdat) < bloomHeader {
		return nil
	}
	b := &bloomIndex{
		version:      binary.BigEndian.Uint32(bdat),
		numHashes:    binary.BigEndian.Uint32(bdat[4:]),
		bitsPerEntry: binary.BigEndian.Uint32(bdat[8:]),
		index:        bidx,
		data:         bdat[bloomHeader:],
	}
	if b.version != 1 && b.version != 2 || b.numHashes == 0 || b.numHashes > maxBloomHashes {
		return nil
	}
	return b
}

// filter returns the filter of the commit at local index i; ok is false
// when the index points outside the data.
func (b *bloomIndex) filter(i uint32) (f []byte, ok bool) {
	end := binary.BigEndian.Uint32(b.index[i*4:])
	start := uint32(0)
	if i > 0 {
		start = binary.BigEndian.Uint32(b.index[(i-1)*4:])
	}
	if start > end || uint64(end) > uint64(len(b.data)) {
		return nil, false
	}
	return b.data[start:end], true
}

// bloomKey is the pair of hashes from which a key's bit positions follow:
// position j is h0 + j*h1, modulo the filter's bit count.
type bloomKey struct{ h0, h1 uint32 }

// newBloomKey hashes one path (no trailing slash) for a hash version.
func newBloomKey(path string, version uint32) bloomKey {
	signed := version == 1
	return bloomKey{murmur3(bloomSeed0, path, signed), murmur3(bloomSeed1, path, signed)}
}

// contains reports whether every bit of key is set in filter. An empty
// filter holds nothing; git stores "too many changes" as all bits set.
func (k bloomKey) contains(filter []byte, numHashes uint32) bool {
	nbits := uint64(len(filter)) * 8
	if nbits == 0 {
		return false
	}
	for j := uint32(0); j < numHashes; j++ {
		pos := uint64(k.h0+j*k.h1) % nbits
		if filter[pos>>3]&(1<<(pos&7)) == 0 {
			return false
		}
	}
	return true
}
