package odb

import (
	"bytes"
	"encoding/binary"
)

// idxMagic opens an idx file of version 2 or later; version 1 files
// start directly with the fanout table.
var idxMagic = []byte{0xff, 't', 'O', 'c'}

const (
	fanoutLen  = 256 * 4
	trailerLen = 2 * 20
)

// idx is a parsed pack index. Its slices alias the file's bytes and are
// never written to, so an idx is safe for concurrent use.
type idx struct {
	file    string
	version int
	n       int
	fanout  []byte
	names   []byte // v2: n names of 20 bytes
	offsets []byte // v2: n 32-bit offsets
	large   []byte // v2: 64-bit offsets
	entries []byte // v1: n entries of a 32-bit offset and a name
	packSum []byte // checksum of the pack the index describes
}

// parseIdx checks the layout of an idx file of version 1 or 2 and
// returns its tables. Names are not checked for order: a file whose
// names are out of order only makes lookups miss.
func parseIdx(file string, b []byte) (*idx, error) {
	x := &idx{file: file}
	body := b
	if len(b) >= 8 && bytes.Equal(b[:4], idxMagic) {
		x.version = int(binary.BigEndian.Uint32(b[4:8]))
		if x.version != 2 {
			return nil, corruptf(file, "idx version %d is not supported", x.version)
		}
		body = b[8:]
	} else {
		x.version = 1
	}
	if len(body) < fanoutLen+trailerLen {
		return nil, corruptf(file, "idx of %d bytes is too short", len(b))
	}
	x.fanout = body[:fanoutLen]
	n, err := checkFanout(file, x.fanout)
	if err != nil {
		return nil, err
	}
	x.n = n
	rest := body[fanoutLen : len(body)-trailerLen]
	x.packSum = body[len(body)-trailerLen : len(body)-20]
	if x.version == 1 {
		return x, x.splitV1(rest)
	}
	return x, x.splitV2(rest)
}

// checkFanout checks that the fanout table never decreases and returns
// the number of objects, its last entry.
func checkFanout(file string, fanout []byte) (int, error) {
	prev := uint32(0)
	for i := 0; i < 256; i++ {
		v := binary.BigEndian.Uint32(fanout[i*4:])
		if v < prev {
			return 0, corruptf(file, "idx fanout decreases at byte %02x", i)
		}
		prev = v
	}
	if uint64(prev) > 1<<31 {
		return 0, corruptf(file, "idx claims %d objects", prev)
	}
	return int(prev), nil
}

// splitV1 cuts the entries table of a version 1 idx.
func (x *idx) splitV1(rest []byte) error {
	if len(rest) != x.n*24 {
		return corruptf(x.file, "idx v1 of %d objects has %d bytes of entries", x.n, len(rest))
	}
	x.entries = rest
	return nil
}

// splitV2 cuts the names, CRC, offset and large-offset tables of a
// version 2 idx.
func (x *idx) splitV2(rest []byte) error {
	fixed := x.n * (20 + 4 + 4)
	if len(rest) < fixed || (len(rest)-fixed)%8 != 0 {
		return corruptf(x.file, "idx v2 of %d objects has %d bytes of tables", x.n, len(rest))
	}
	x.names = rest[:x.n*20]
	x.offsets = rest[x.n*24 : x.n*28]
	x.large = rest[fixed:]
	return nil
}

// name returns the object name at position i, which must be below n.
func (x *idx) name(i int) []byte {
	if x.version == 1 {
		return x.entries[i*24+4 : i*24+24]
	}
	return x.names[i*20 : i*20+20]
}

// find returns the position of id in the index.
func (x *idx) find(id *[20]byte) (int, bool) {
	lo := 0
	if id[0] > 0 {
		lo = int(binary.BigEndian.Uint32(x.fanout[(int(id[0])-1)*4:]))
	}
	hi := int(binary.BigEndian.Uint32(x.fanout[int(id[0])*4:]))
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch bytes.Compare(x.name(mid), id[:]) {
		case 0:
			return mid, true
		case -1:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false
}

// offset returns the pack offset of the object at position i, which
// must be below n.
func (x *idx) offset(i int) (int64, error) {
	if x.version == 1 {
		return int64(binary.BigEndian.Uint32(x.entries[i*24:])), nil
	}
	o := binary.BigEndian.Uint32(x.offsets[i*4:])
	if o&0x80000000 == 0 {
		return int64(o), nil
	}
	k := int(o & 0x7fffffff)
	if k >= len(x.large)/8 {
		return 0, corruptf(x.file, "large offset %d of %d", k, len(x.large)/8)
	}
	v := binary.BigEndian.Uint64(x.large[k*8:])
	if v >= 1<<62 {
		return 0, corruptf(x.file, "offset %d out of range", v)
	}
	return int64(v), nil
}
