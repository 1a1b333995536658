package odb

import (
	"bytes"
	"encoding/binary"
	"hash/adler32"
)

// storedStream is a zlib stream made only of stored deflate blocks: the form in which the
// store writes a large tree, whose ids do not compress. Its content is copied out of the
// blocks, not inflated through a window.
type storedStream struct {
	z []byte
	// first is the content of the first block, and size the content's length.
	first []byte
	size  int
}

// parseStored reads the framing of z as a stream of stored blocks: the zlib header, and each
// block's length and its complement up to the final block, then the four bytes of the
// Adler-32 sum. False for any other stream, which the inflater reads and, when damaged,
// names the damage.
func parseStored(z []byte) (storedStream, bool) {
	if len(z) < 2 || z[0]&0x0f != 8 || z[0]>>4 > 7 || z[1]&0x20 != 0 || (int(z[0])<<8|int(z[1]))%31 != 0 {
		return storedStream{}, false
	}
	s := storedStream{z: z}
	pos := 2
	for {
		if pos+5 > len(z) || z[pos]>>1&3 != 0 {
			return storedStream{}, false
		}
		n := int(binary.LittleEndian.Uint16(z[pos+1:]))
		if binary.LittleEndian.Uint16(z[pos+3:]) != ^uint16(n) || pos+5+n > len(z) {
			return storedStream{}, false
		}
		if pos == 2 {
			s.first = z[pos+5 : pos+5+n]
		}
		s.size += n
		final := z[pos]&1 == 1
		pos += 5 + n
		if final {
			break
		}
	}
	return s, pos+4 == len(z)
}

// content copies the stream's content from the blocks into new memory after skip bytes,
// and checks it against the stream's Adler-32 sum, as inflating does; false when it differs.
func (s storedStream) content(skip int) ([]byte, bool) {
	out := make([]byte, s.size-skip)
	sum := adler32.New()
	for pos, at := 2, 0; ; {
		n := int(binary.LittleEndian.Uint16(s.z[pos+1:]))
		block := s.z[pos+5 : pos+5+n]
		sum.Write(block)
		if cut := min(max(skip-at, 0), n); cut < n {
			copy(out[at+cut-skip:], block[cut:])
		}
		at += n
		final := s.z[pos]&1 == 1
		pos += 5 + n
		if final {
			return out, bytes.Equal(sum.Sum(nil), s.z[pos:pos+4])
		}
	}
}
