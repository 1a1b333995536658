package gitstore

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// maxIndexSize bounds the index files this package reads.
const maxIndexSize = 1 << 30

var errBadIndex = errors.New("index file is truncated or malformed; rebuild it with `git read-tree HEAD`")

// eachIndexExtension calls fn with the signature and data of every
// extension of the index file b, in order.
func eachIndexExtension(b []byte, fn func(sig string, data []byte)) error {
	if len(b) < 32 || string(b[:4]) != "DIRC" {
		return errBadIndex
	}
	version := binary.BigEndian.Uint32(b[4:8])
	count := binary.BigEndian.Uint32(b[8:12])
	pos, end := 12, len(b)-20
	for i := uint32(0); i < count; i++ {
		next, ok := skipIndexEntry(b[:end], pos, version)
		if !ok {
			return errBadIndex
		}
		pos = next
	}
	for pos+8 <= end {
		n := int(binary.BigEndian.Uint32(b[pos+4 : pos+8]))
		if n < 0 || n > end-pos-8 {
			return errBadIndex
		}
		fn(string(b[pos:pos+4]), b[pos+8:pos+8+n])
		pos += 8 + n
	}
	return nil
}

// skipIndexEntry returns the offset just past the entry at pos.
func skipIndexEntry(b []byte, pos int, version uint32) (int, bool) {
	const fixed = 62
	if pos+fixed > len(b) {
		return 0, false
	}
	start := pos
	flags := binary.BigEndian.Uint16(b[pos+60 : pos+62])
	pos += fixed
	if flags&0x4000 != 0 && version >= 3 {
		pos += 2
	}
	if pos > len(b) {
		return 0, false
	}
	if version == 4 {
		return skipV4Name(b, pos)
	}
	// The flags hold the name's length below 0xfff, as git reads it; a longer name is
	// measured to its NUL.
	nul := int(flags & 0xfff)
	if nul == 0xfff {
		nul = bytes.IndexByte(b[pos:], 0)
	}
	if nul < 0 || pos+nul >= len(b) || b[pos+nul] != 0 {
		return 0, false
	}
	// The name is followed by one to eight NULs so that the entry's
	// length is a multiple of eight.
	next := start + (pos-start+nul+8)&^7
	if next > len(b) {
		return 0, false
	}
	return next, true
}

// skipV4Name skips a prefix-compressed name: a varint, then a suffix
// ending in NUL.
func skipV4Name(b []byte, pos int) (int, bool) {
	for pos < len(b) && b[pos]&0x80 != 0 {
		pos++
	}
	pos++
	if pos > len(b) {
		return 0, false
	}
	nul := bytes.IndexByte(b[pos:], 0)
	if nul < 0 {
		return 0, false
	}
	return pos + nul + 1, true
}
