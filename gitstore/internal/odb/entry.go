package odb

import (
	"errors"
	"fmt"
)

// Pack entry types beyond the four object types.
const (
	ofsDelta = 6
	refDelta = 7
)

// maxEntryHeader is the most bytes a pack entry header can take: ten
// bytes of type and size, then ten of base offset or twenty of name.
const maxEntryHeader = 10 + 20

// entry is the header of a pack entry.
type entry struct {
	off     int64 // where the entry starts
	typ     int   // 1 to 4 for objects, ofsDelta or refDelta
	size    int64 // size of the inflated data: object or delta
	data    int64 // where the compressed data starts
	baseOff int64 // ofsDelta: offset of the base
	baseID  [20]byte
}

// isDelta reports whether the entry is a delta against a base.
func (e *entry) isDelta() bool { return e.typ == ofsDelta || e.typ == refDelta }

// entryAt parses the header of the entry at off.
func (p *pack) entryAt(off int64) (entry, error) {
	e := entry{off: off}
	if off < 12 || off >= p.end() {
		return e, corruptf(p.file, "entry offset %d outside the pack", off)
	}
	b, err := p.data.slice(off, min(maxEntryHeader, p.end()-off))
	if err != nil {
		return e, fmt.Errorf("%s: %w", p.file, err)
	}
	n, err := e.parseTypeSize(b)
	if err != nil {
		return e, corruptf(p.file, "entry at %d: %v", off, err)
	}
	switch e.typ {
	case int(Commit), int(Tree), int(Blob), int(Tag):
	case ofsDelta:
		n, err = e.parseBaseOffset(b, n)
	case refDelta:
		if len(b) < n+20 {
			err = errShort
		} else {
			copy(e.baseID[:], b[n:n+20])
			n += 20
		}
	default:
		err = fmt.Errorf("type %d", e.typ)
	}
	if err != nil {
		return e, corruptf(p.file, "entry at %d: %v", off, err)
	}
	e.data = off + int64(n)
	return e, nil
}

var errShort = errors.New("header runs past the end")

// parseTypeSize reads the type and size bytes of a header and returns
// how many it took.
func (e *entry) parseTypeSize(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, errShort
	}
	c := b[0]
	e.typ = int(c>>4) & 7
	size := uint64(c & 15)
	shift, n := uint(4), 1
	for c&0x80 != 0 {
		if n >= len(b) {
			return 0, errShort
		}
		if shift > 60 {
			return 0, errors.New("size too large")
		}
		c = b[n]
		n++
		size |= uint64(c&0x7f) << shift
		shift += 7
	}
	if size >= 1<<62 {
		return 0, errors.New("size too large")
	}
	e.size = int64(size)
	return n, nil
}

// parseBaseOffset reads the negative base offset of an OFS_DELTA entry
// starting at b[n] and returns where the header ends.
func (e *entry) parseBaseOffset(b []byte, n int) (int, error) {
	if n >= len(b) {
		return 0, errShort
	}
	c := b[n]
	n++
	rel := uint64(c & 0x7f)
	for c&0x80 != 0 {
		if n >= len(b) {
			return 0, errShort
		}
		if rel >= 1<<55 {
			return 0, errors.New("base offset too large")
		}
		c = b[n]
		n++
		rel = ((rel + 1) << 7) | uint64(c&0x7f)
	}
	if rel == 0 || rel > uint64(e.off) || e.off-int64(rel) < 12 {
		return 0, fmt.Errorf("base offset %d before the pack", rel)
	}
	e.baseOff = e.off - int64(rel)
	return n, nil
}

// compressed returns the compressed data of e, from after its header to
// where the next entry starts.
func (p *pack) compressed(e *entry) ([]byte, error) {
	end := p.streamEnd(e)
	if end <= e.data {
		return nil, corruptf(p.file, "entry at %d has no data", e.off)
	}
	return p.data.slice(e.data, end-e.data)
}

// streamEnd returns an offset past the end of e's compressed data: the end of a window that
// holds any stream of e's size, as deflate at worst doubles its input. The inflater stops at
// the end of the stream, and checks its checksum, so the entry's exact end (which needs the
// offsets of every entry of the pack sorted: 7 ms for a pack of 200,000) is never needed.
func (p *pack) streamEnd(e *entry) int64 {
	return min(p.end(), e.data+2*e.size+64)
}

// inflateEntry returns the inflated data of e, object or delta.
func (p *pack) inflateEntry(e *entry) ([]byte, error) {
	z, err := p.compressed(e)
	if err != nil {
		return nil, err
	}
	// A blob or a delta is usually given back once read (see getBuf).
	spare := e.typ == int(Blob) || e.isDelta()
	out, err := inflate(z, e.size, spare)
	if err != nil {
		return nil, corruptf(p.file, "entry at %d: %v", e.off, err)
	}
	return out, nil
}

// peekEntry returns the first n inflated bytes of e, fewer if e is
// shorter.
func (p *pack) peekEntry(e *entry, n int) ([]byte, error) {
	z, err := p.compressed(e)
	if err != nil {
		return nil, err
	}
	out, err := inflatePrefix(z, int(min(int64(n), e.size)))
	if err != nil {
		return nil, corruptf(p.file, "entry at %d: %v", e.off, err)
	}
	return out, nil
}
