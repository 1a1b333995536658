package audit

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
)

// A printed entry of a text report ends with an index of its blocks, after the report:
//
//	byte 1 (a report of a head, blocks and a tail), else byte 0 and nothing more
//	uvarint head length, uvarint count
//	count × block: string path, uvarint length, tally
//
// where a tally is uvarint open, fresh and suppressed findings, uvarint open findings of each
// severity from info to critical, and a risk and a verdict byte. The blocks are in path order
// and follow one another from the end of the head, so that the report of a later version of
// the folder is this one's bytes with the blocks of what changed taken out or put in, and a
// tail written anew (see cache_printed_change.go).

// maxIndexPath bounds the path of a block read from an index.
const maxIndexPath = 64 << 10

// blockIndex gathers the index of a text report as it is printed.
type blockIndex struct {
	head  int
	count int
	b     []byte
	last  string
	// broken is set when the blocks cannot be indexed: out of path order.
	broken bool
}

// add appends the block of the skill at path, n bytes long, with tally t.
func (x *blockIndex) add(path string, n int, t skillTally) {
	if x.count > 0 && path <= x.last {
		x.broken = true
	}
	x.count++
	x.last = path
	x.b = appendTally(binary.AppendUvarint(appendString(x.b, path), uint64(n)), t)
}

// encode returns the index as an entry stores it; an index of nothing when x is nil or broken.
func (x *blockIndex) encode() []byte {
	if x == nil || x.broken || x.count == 0 {
		return []byte{0}
	}
	b := binary.AppendUvarint(binary.AppendUvarint([]byte{1}, uint64(x.head)), uint64(x.count))
	return append(b, x.b...)
}

func appendTally(b []byte, t skillTally) []byte {
	c := t.counts
	for _, n := range []int{c.open, c.fresh, c.suppressed} {
		b = binary.AppendUvarint(b, uint64(n))
	}
	for s := Info; s <= Critical; s++ {
		b = binary.AppendUvarint(b, uint64(c.bySeverity[s]))
	}
	return append(b, byte(t.risk), byte(t.verdict))
}

// blockRecord is one block of an index as a reader reads it. path is valid until the next
// record is read.
type blockRecord struct {
	path  []byte
	n     int64
	tally skillTally
}

// recordReader reads the fields of an index or a stored change; the first short or bad read
// sets err, and every later read returns zero values.
type recordReader struct {
	r interface {
		io.Reader
		io.ByteReader
	}
	err error
}

func (x *recordReader) uint() uint64 {
	if x.err != nil {
		return 0
	}
	v, err := binary.ReadUvarint(x.r)
	if err != nil {
		x.fail()
	}
	return v
}

func (x *recordReader) byte() byte {
	if x.err != nil {
		return 0
	}
	b, err := x.r.ReadByte()
	if err != nil {
		x.fail()
	}
	return b
}

// bytes reads a string field of at most limit bytes into buf, which it returns.
func (x *recordReader) bytes(buf []byte, limit int) []byte {
	n := x.uint()
	if x.err != nil || n > uint64(limit) {
		x.fail()
		return buf[:0]
	}
	if uint64(cap(buf)) < n {
		buf = make([]byte, n, max(n, 256))
	}
	buf = buf[:n]
	if _, err := io.ReadFull(x.r, buf); err != nil {
		x.fail()
	}
	return buf
}

func (x *recordReader) tally() skillTally {
	var t skillTally
	t.counts.open, t.counts.fresh, t.counts.suppressed = int(x.uint()), int(x.uint()), int(x.uint())
	for s := Info; s <= Critical; s++ {
		t.counts.bySeverity[s] = int(x.uint())
	}
	t.risk, t.verdict = Risk(x.byte()), Verdict(x.byte())
	return t
}

func (x *recordReader) fail() {
	if x.err == nil {
		x.err = fmt.Errorf("%w: printed entry cut short or malformed", errCorrupt)
	}
}

// indexReader reads the index of a printed entry once through.
type indexReader struct {
	recordReader
	head  int64
	count int
	rec   blockRecord
}

// readIndexHead reads the head of the index in r, from a buffer it reuses; false for an
// index of nothing.
func readIndexHead(r io.Reader) (*indexReader, bool) {
	x := &indexReader{recordReader: recordReader{r: bufio.NewReaderSize(r, printedChunk)}}
	if x.byte() != 1 {
		return nil, false
	}
	x.head = int64(x.uint())
	x.count = int(min(x.uint(), 1<<40))
	return x, x.err == nil
}

// next reads the next record into x.rec.
func (x *indexReader) next() bool {
	x.rec.path = x.bytes(x.rec.path, maxIndexPath)
	x.rec.n = int64(min(x.uint(), maxPrinted))
	x.rec.tally = x.tally()
	return x.err == nil
}

// writeTextIndexed is WriteText that also indexes the report's blocks in x, when not nil.
func writeTextIndexed(w io.Writer, skills []SkillReport, o WriteOptions, x *blockIndex) error {
	tw := newTextWriter(w, o)
	tw.head(o)
	if x != nil {
		x.head = tw.n
	}
	var t runTally
	for _, s := range skills {
		before := tw.n
		tw.block(s, o.FailOn)
		st := tallyOf(s, o.FailOn)
		t.add(st, 1)
		if x != nil {
			x.add(s.Path, tw.n-before, st)
		}
	}
	tw.tail(t, o.FailOn)
	return tw.finish()
}
