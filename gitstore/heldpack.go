package gitstore

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"hash"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
)

const (
	// deltaMin is the size from which a held object is stored as a delta when an earlier
	// object of the pack shares most of its bytes: the trees a batch rewrites.
	deltaMin = 1024
	// maxDeltaDepth bounds a chain of deltas, as git's pack.depth does, so that reading the
	// last object of a long batch does not apply hundreds of them.
	maxDeltaDepth = 50
	// copyMax is the largest copy of one delta instruction that git writes.
	copyMax = 0x10000
	// ofsDelta is the pack entry type of a delta whose base is at an offset of the pack.
	ofsDelta = 6
)

// writeHeldPack writes the objects of s into objects/pack as one pack with its index, and
// returns the pack's name.
func writeHeldPack(objDir string, s *heldObjects) (string, error) {
	packDir := filepath.Join(objDir, "pack")
	idx, err := newPack(packDir, func(f *os.File) (*idxfile.MemoryIndex, error) { return encodeHeld(f, s.list) })
	if err != nil {
		return "", err
	}
	return packName(packDir, idx), nil
}

// packWriter writes a pack stream, keeping its checksum and offset.
type packWriter struct {
	w   *bufio.Writer
	sum hash.Hash
	off int64
	zw  *zlib.Writer
}

func (p *packWriter) Write(b []byte) (int, error) {
	p.sum.Write(b)
	p.off += int64(len(b))
	return p.w.Write(b)
}

// encodeHeld writes objs to w as a pack and returns its index. An object held as a delta
// of an earlier one is written as that delta.
func encodeHeld(w io.Writer, objs []heldObject) (*idxfile.MemoryIndex, error) {
	p, iw, err := startPack(w, uint32(len(objs)))
	if err != nil {
		return nil, err
	}
	p.zw, _ = zlib.NewWriterLevel(io.Discard, zlib.BestSpeed) // a valid level cannot fail
	offs := make([]int64, len(objs))
	for i, o := range objs {
		offs[i] = p.off
		back := int64(-1)
		if o.base >= 0 {
			back = offs[i] - offs[o.base]
		}
		crc, err := p.entry(o, back)
		if err != nil {
			return nil, err
		}
		iw.Add(o.h, uint64(offs[i]), crc)
	}
	return p.finish(iw)
}

// startPack writes the header of a pack of count objects to w, and returns the writer of its
// entries and the index to add them to.
func startPack(w io.Writer, count uint32) (*packWriter, *idxfile.Writer, error) {
	p := &packWriter{w: bufio.NewWriterSize(w, 1<<16), sum: sha1.New()}
	head := []byte("PACK\x00\x00\x00\x02\x00\x00\x00\x00")
	binary.BigEndian.PutUint32(head[8:], count)
	if _, err := p.Write(head); err != nil {
		return nil, nil, err
	}
	iw := new(idxfile.Writer)
	if err := iw.OnHeader(count); err != nil {
		return nil, nil, err
	}
	return p, iw, nil
}

// finish writes the pack's checksum after its entries, flushes it, and returns its index.
func (p *packWriter) finish(iw *idxfile.Writer) (*idxfile.MemoryIndex, error) {
	var sum plumbing.Hash
	copy(sum[:], p.sum.Sum(nil))
	if _, err := p.w.Write(sum[:]); err != nil {
		return nil, err
	}
	if err := p.w.Flush(); err != nil {
		return nil, err
	}
	if err := iw.OnFooter(sum); err != nil {
		return nil, err
	}
	return iw.Index()
}

// entry writes object o, as its delta when back, the distance to its base, is not -1, and
// returns the CRC of its bytes, which the index keeps.
func (p *packWriter) entry(o heldObject, back int64) (uint32, error) {
	crc := crc32.NewIEEE()
	out := io.MultiWriter(p, crc)
	typ, body := int(o.t), o.data
	if back >= 0 {
		typ, body = ofsDelta, o.delta
	}
	hdr := entryHeader(typ, len(body))
	if back >= 0 {
		hdr = append(hdr, baseOffset(back)...)
	}
	if _, err := out.Write(hdr); err != nil {
		return 0, err
	}
	p.zw.Reset(out)
	if _, err := p.zw.Write(body); err != nil {
		return 0, err
	}
	if err := p.zw.Close(); err != nil {
		return 0, err
	}
	return crc.Sum32(), nil
}

// entryHeader is a pack entry's type and size: the type and the size's low four bits in the
// first byte, the rest of the size seven bits a byte, each byte but the last with its high
// bit set.
func entryHeader(typ, size int) []byte {
	b := []byte{byte(typ<<4 | size&0x0f)}
	for size >>= 4; size > 0; size >>= 7 {
		b[len(b)-1] |= 0x80
		b = append(b, byte(size&0x7f))
	}
	return b
}

// baseOffset encodes the distance back to a delta's base as git does: seven bits a byte,
// most significant first, each byte but the last with its high bit set and one less than
// its value, so that every distance has one encoding.
func baseOffset(back int64) []byte {
	b := []byte{byte(back & 0x7f)}
	for back >>= 7; back > 0; back >>= 7 {
		back--
		b = append([]byte{byte(0x80 | back&0x7f)}, b...)
	}
	return b
}

// sharedEnds returns how many bytes a and b share at their start, and then at their end
// without overlapping what the start took.
func sharedEnds(a, b []byte) (pre, suf int) {
	n := min(len(a), len(b))
	for pre+sharedBlock <= n && bytes.Equal(a[pre:pre+sharedBlock], b[pre:pre+sharedBlock]) {
		pre += sharedBlock
	}
	for pre < n && a[pre] == b[pre] {
		pre++
	}
	for suf+sharedBlock <= n-pre && bytes.Equal(a[len(a)-suf-sharedBlock:len(a)-suf], b[len(b)-suf-sharedBlock:len(b)-suf]) {
		suf += sharedBlock
	}
	for suf < n-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	return pre, suf
}

// sharedBlock is how many bytes sharedEnds compares at once before it goes byte by byte.
const sharedBlock = 256

// makeDelta writes target as a git delta of base: a copy of their shared start, the bytes
// between inserted, a copy of their shared end.
func makeDelta(base, target []byte) []byte {
	pre, suf := sharedEnds(base, target)
	d := deltaSize(nil, len(base))
	d = deltaSize(d, len(target))
	d = appendCopy(d, 0, pre)
	for mid := target[pre : len(target)-suf]; len(mid) > 0; {
		n := min(len(mid), 0x7f)
		d = append(append(d, byte(n)), mid[:n]...)
		mid = mid[n:]
	}
	return appendCopy(d, len(base)-suf, suf)
}

// deltaSize appends a size of a delta's header: seven bits a byte, least significant first.
func deltaSize(d []byte, n int) []byte {
	for n >= 0x80 {
		d = append(d, byte(n&0x7f|0x80))
		n >>= 7
	}
	return append(d, byte(n))
}

// appendCopy appends the instructions that copy n bytes of the base from off, copyMax at a
// time: an instruction byte saying which bytes of the offset and size follow, then those.
func appendCopy(d []byte, off, n int) []byte {
	for n > 0 {
		size := min(n, copyMax)
		op, args := byte(0x80), []byte{}
		for k := range 4 {
			if v := byte(off >> (8 * k)); v != 0 {
				op |= 1 << k
				args = append(args, v)
			}
		}
		if size != copyMax { // a size of zero bytes means copyMax
			for k := range 3 {
				if v := byte(size >> (8 * k)); v != 0 {
					op |= 1 << (4 + k)
					args = append(args, v)
				}
			}
		}
		d = append(append(d, op), args...)
		off, n = off+size, n-size
	}
	return d
}
