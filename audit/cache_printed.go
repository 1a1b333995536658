package audit

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/skillgit/skillgit/internal/atomicfile"
	"github.com/skillgit/skillgit/internal/cachefile"
)

// A printed entry holds a report of a whole result as Write printed it, with its verdict, so
// that a repeat audit of an unchanged skills folder copies those bytes out instead of decoding
// and printing the report of every skill. Layout:
//
//	magic "SGAP", format byte
//	uvarint ruleset, string root, string folder, string policy, string how
//	verdict byte
//	the printed report
//	the index of its blocks (cache_printed_index.go)
//	8-byte big-endian length of the printed report
//	4-byte big-endian CRC-32 (Castagnoli) of everything before it
//
// where how is the hash of how the report was printed (see PrintKey.how). A reader checks
// the checksum in a first pass over the file, with a buffer it reuses, and copies the report
// out in a second, so that a large report is never held in memory. An entry may also hold a
// report as a change to another (cache_printed_change.go).
const (
	printedMagic  = "SGAP"
	printedFormat = 2
	// printedFolder is the subfolder of Cache.Dir that holds printed entries.
	printedFolder = "printed"
	// maxPrinted bounds a printed entry: a larger report is neither stored nor read.
	maxPrinted = 256 << 20
	// maxPrintedEntries bounds how many printed entries are kept: storing one more removes the
	// least recently used.
	maxPrintedEntries = 4
	// printedChunk is how much of a printed entry is read at a time; the head of an entry must
	// fit in it.
	printedChunk = 256 << 10
	// printedTrailer is the length of what follows the index.
	printedTrailer = 8 + 4
)

// Printed is the part of a Cache that keeps printed reports.
type Printed struct {
	cache *Cache
}

// Printed returns the part of c that keeps printed reports; c may be nil, a cache that keeps
// nothing.
func (c *Cache) Printed() Printed { return Printed{cache: c} }

// keeps reports whether c has a folder to keep printed reports in.
func (c Printed) keeps() bool { return c.cache != nil && c.cache.Dir != "" }

// PrintKey is what a printed report depends on: the whole result it prints (the tree object
// id of the skills folder, where the folder is, and the policy hash, which covers
// Options.Custom) and how it is printed.
type PrintKey struct {
	Root, Folder, Policy string
	Format               Format
	Options              WriteOptions
}

// all returns the key of the whole result k prints.
func (k PrintKey) all() allKey {
	return allKey{root: k.Root, folder: k.Folder, policy: k.Policy, ruleset: rulesetKey()}
}

// how hashes how k's report is printed: the format, the options besides Custom, and the
// build of skillgit, which may print the same result in other words.
func (k PrintKey) how() string {
	o := k.Options
	sum := entrySum("skillgit-audit-print", printedFormat, int(k.Format), strconv.FormatBool(o.Color), o.Version,
		o.FailOn.String(), o.Title, cachefile.BuildID())
	return hex.EncodeToString(sum[:16])
}

// file returns the path of the printed entry of k.
func (c Printed) file(k PrintKey) string {
	a := k.all()
	return filepath.Join(c.cache.Dir, printedFolder, entryName("skillgit-audit-printed", printedFormat, a.ruleset, a.root, a.folder, a.policy, k.how()))
}

// Copy writes to w the report printed for k, as Write or Since stored it,
// and returns its verdict. ok is false, and nothing is written, when the cache holds no such
// report or its entry is missing, oversized, damaged or stored under another key. An error is
// a failure to write to w, which may then hold part of the report.
func (c Printed) Copy(w io.Writer, k PrintKey) (v Verdict, ok bool, err error) {
	if !c.keeps() || k.Root == "" {
		return v, false, nil
	}
	if ch, ok := c.readChange(k); ok {
		return c.copyChange(w, k, ch)
	}
	e, ok := c.open(k)
	if !ok {
		return v, false, nil
	}
	defer e.close()
	if err := e.copyRange(w, 0, e.length); err != nil {
		return e.verdict, true, fmt.Errorf("print the cached report: %w", err)
	}
	e.markUsed()
	return e.verdict, true, nil
}

// printedEntry is a printed entry stored whole, checked and open for reading.
type printedEntry struct {
	f    *os.File
	name string
	mod  time.Time
	size int64
	// start and length locate the report in the file.
	start, length int64
	verdict       Verdict
}

// open opens and checks the printed entry of k stored whole; false when it is missing,
// oversized, damaged, stored under another key or a change.
func (c Printed) open(k PrintKey) (*printedEntry, bool) {
	name := c.file(k)
	f, err := openEntryFile(name)
	if err != nil {
		return nil, false
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxPrinted {
		f.Close()
		return nil, false
	}
	e := &printedEntry{f: f, name: name, mod: fi.ModTime(), size: fi.Size()}
	head, v, trailer, ok := checkPrinted(f, fi.Size(), k, printedChunk)
	if ok {
		e.start, e.verdict = int64(head), v
		e.length = int64(binary.BigEndian.Uint64(trailer))
		// The report is followed by at least the index's first byte and the trailer.
		ok = e.length >= 0 && e.length <= e.size-e.start-1-printedTrailer
	}
	if !ok {
		f.Close()
		return nil, false
	}
	return e, true
}

func (e *printedEntry) close() { e.f.Close() }

// copyRange copies n bytes of the report, from off on, to w.
func (e *printedEntry) copyRange(w io.Writer, off, n int64) error {
	_, err := io.Copy(w, io.NewSectionReader(e.f, e.start+off, n))
	return err
}

// blocks returns a reader of the index of the report's blocks; false when the report has none.
func (e *printedEntry) blocks() (*indexReader, bool) {
	at := e.start + e.length
	x, ok := readIndexHead(io.NewSectionReader(e.f, at, e.size-printedTrailer-at))
	if !ok || x.head > e.length {
		return nil, false
	}
	return x, true
}

// markUsed renews the entry's time, for prune, when it is older than touchAfter.
func (e *printedEntry) markUsed() {
	if time.Since(e.mod) > touchAfter {
		touch(e.name)
	}
}

// checkPrinted reads f, a printed entry of size bytes, once through, chunk bytes at a time,
// and returns the length of its head, its verdict and the 8 bytes before its checksum, if
// its checksum holds and it is stored whole under k. The head must fit in the first chunk.
func checkPrinted(f io.Reader, size int64, k PrintKey, chunk int) (head int, v Verdict, trailer []byte, ok bool) {
	if size < int64(len(printedMagic))+6+printedTrailer {
		return 0, v, nil, false
	}
	buf := make([]byte, min(size, int64(chunk)))
	crc := crc32.New(castagnoli)
	// The checksum covers everything before the last 4 bytes, which hold it.
	end := size - 4
	var last []byte
	for off := int64(0); off < size; {
		n, err := io.ReadFull(f, buf[:min(size-off, int64(len(buf)))])
		if err != nil {
			return 0, v, nil, false
		}
		if off == 0 {
			if head, v, ok = printedHead(buf[:n], k); !ok || int64(head) > end-8 {
				return 0, v, nil, false
			}
		}
		covered := int(min(max(end-off, 0), int64(n)))
		crc.Write(buf[:covered])
		// Keep the last printedTrailer bytes seen.
		last = append(last, buf[max(0, n-printedTrailer):n]...)
		last = last[max(0, len(last)-printedTrailer):]
		off += int64(n)
	}
	return head, v, last[:8], crc.Sum32() == binary.BigEndian.Uint32(last[8:])
}

// printedHead reads the head of a printed entry stored whole from b, its first bytes, and
// returns the head's length and the verdict, if the entry is stored under k.
func printedHead(b []byte, k PrintKey) (int, Verdict, bool) {
	if !hasMagic(b, printedMagic) {
		return 0, 0, false
	}
	d := &entryDecoder{b: b[len(printedMagic):], shared: true}
	ok := d.isPrintKey(k)
	v := Verdict(d.byte())
	if d.err || !ok || v < VerdictPass || v > VerdictBlocked {
		return 0, 0, false
	}
	return len(b) - len(d.b), v, true
}

// isPrintKey reads the key of a printed entry after its magic, and reports whether it is k.
func (d *entryDecoder) isPrintKey(k PrintKey) bool {
	a := k.all()
	return d.byte() == printedFormat && d.int() == a.ruleset && d.string() == a.root && d.string() == a.folder &&
		d.string() == a.policy && d.string() == k.how()
}

// appendPrintedHead appends the head of a printed entry of k that starts with magic and holds
// a report of verdict v.
func appendPrintedHead(b []byte, magic string, k PrintKey, v Verdict) []byte {
	a := k.all()
	b = binary.AppendUvarint(append(append(b, magic...), printedFormat), uint64(a.ruleset))
	for _, s := range []string{a.root, a.folder, a.policy, k.how()} {
		b = appendString(b, s)
	}
	return append(b, byte(v))
}

// Write writes reports, the whole result k names, to w in k's format and returns their
// verdict, and stores what it printed in the cache for Copy, with the index of its
// blocks for a text report. A report that cannot be stored is only a later miss; an error is
// a failure to print.
func (c Printed) Write(w io.Writer, k PrintKey, reports []SkillReport) (Verdict, error) {
	v := Judge(reports, k.Options.FailOn)
	keep := c.start(k, v)
	if keep == nil {
		return v, Write(w, k.Format, reports, k.Options)
	}
	out := io.MultiWriter(w, keep)
	var err error
	if k.Format == FormatText {
		keep.index = &blockIndex{}
		err = writeTextIndexed(out, reports, k.Options, keep.index)
	} else {
		err = Write(out, k.Format, reports, k.Options)
	}
	if err != nil {
		keep.abort()
		return v, err
	}
	if keep.commit() {
		c.cache.prune(printedFolder, maxPrintedEntries)
	}
	return v, nil
}

// printedWriter stores a printed entry as it is printed. Its writes never fail: a failure to
// store only drops the entry, so that the report is still printed.
type printedWriter struct {
	file  *atomicfile.File
	w     *bufio.Writer
	crc   hash.Hash32
	size  int64
	index *blockIndex
	err   error
}

// start starts storing the printed entry of k with verdict v; nil when the cache has no
// folder or the entry cannot be made.
func (c Printed) start(k PrintKey, v Verdict) *printedWriter {
	if !c.keeps() || k.Root == "" {
		return nil
	}
	f, err := atomicfile.Create(c.file(k), atomicfile.Options{DirPerm: 0o700})
	if err != nil {
		return nil
	}
	p := &printedWriter{file: f, w: bufio.NewWriterSize(f, 64<<10), crc: crc32.New(castagnoli)}
	p.put(appendPrintedHead(nil, printedMagic, k, v))
	return p
}

// Write stores b, part of the report, unless the entry failed or grew over maxPrinted.
func (p *printedWriter) Write(b []byte) (int, error) {
	if p.size += int64(len(b)); p.size > maxPrinted && p.err == nil {
		p.err = fmt.Errorf("printed report over %d bytes", maxPrinted)
	}
	p.put(b)
	return len(b), nil
}

// put stores b, unless the entry failed.
func (p *printedWriter) put(b []byte) {
	if p.err == nil {
		p.crc.Write(b)
		_, p.err = p.w.Write(b)
	}
}

// commit seals the entry with its index, the report's length and its checksum and puts it in
// place, or drops it if it failed, and reports whether it stored the entry.
func (p *printedWriter) commit() bool {
	p.put(p.index.encode())
	p.put(binary.BigEndian.AppendUint64(nil, uint64(p.size)))
	if p.err == nil {
		p.err = p.w.Flush()
	}
	if p.err == nil {
		_, p.err = p.file.Write(binary.BigEndian.AppendUint32(nil, p.crc.Sum32()))
	}
	if p.err != nil {
		p.file.Abort()
		return false
	}
	return p.file.Commit() == nil
}

// abort drops the entry.
func (p *printedWriter) abort() {
	p.file.Abort()
}
