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
	"sync"
	"time"

	"github.com/skillgit/skillgit/internal/atomicfile"
	"github.com/skillgit/skillgit/internal/cachefile"
)

// A printed entry holds a report of a whole result as Write printed it, with its verdict, so
// that a repeat audit of an unchanged skills folder copies those bytes out instead of decoding
// and printing the report of every skill. Layout:
//
//	magic "SGAP", format byte
//	uvarint ruleset, string root, string folder, string policy, string print
//	verdict byte
//	the printed report
//	4-byte big-endian CRC-32 (Castagnoli) of everything before it
//
// where print is the hash of how the report was printed (see PrintKey.how). A reader checks
// the checksum in a first pass over the file, with a buffer it reuses, and copies the report
// out in a second, so that a large report is never held in memory.
const (
	printedMagic  = "SGAP"
	printedFormat = 1
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
)

// PrintKey is what a printed report depends on: the whole result it prints, which the tree
// object id of the skills folder, where the folder is and the policy key, and how it is
// printed. The policy hash covers Options.Custom.
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
		o.FailOn.String(), o.Title, buildStamp())
	return hex.EncodeToString(sum[:16])
}

// buildStamp names the running build of skillgit: its recorded version and the size and time
// of its executable, so that a build from a changed work tree, which records the same
// version as the one before it, does not reuse what that one printed.
var buildStamp = sync.OnceValue(func() string {
	stamp := cachefile.BuildID()
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			stamp += fmt.Sprintf(" %d %d", fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return stamp
})

func (c *Cache) printedFile(k PrintKey, how string) string {
	a := k.all()
	return filepath.Join(c.Dir, printedFolder, entryName("skillgit-audit-printed", printedFormat, a.ruleset, a.root, a.folder, a.policy, how))
}

// CopyPrinted writes to w the report printed for k, as WritePrinted stored it, and returns its
// verdict. ok is false, and nothing is written, when the cache holds no such report or its
// entry is missing, oversized, damaged or stored under another key. An error is a failure to
// write to w, which may then hold part of the report.
func (c *Cache) CopyPrinted(w io.Writer, k PrintKey) (v Verdict, ok bool, err error) {
	if c == nil || c.Dir == "" || k.Root == "" {
		return v, false, nil
	}
	name := c.printedFile(k, k.how())
	f, err := openEntryFile(name)
	if err != nil {
		return v, false, nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxPrinted {
		return v, false, nil
	}
	head, v, ok := checkPrinted(f, fi.Size(), k, printedChunk)
	if !ok {
		return v, false, nil
	}
	if _, err := f.Seek(int64(head), io.SeekStart); err != nil {
		return v, false, nil
	}
	if _, err := io.CopyN(w, f, fi.Size()-int64(head)-4); err != nil {
		return v, true, fmt.Errorf("print the cached report: %w", err)
	}
	if time.Since(fi.ModTime()) > touchAfter {
		touch(name)
	}
	return v, true, nil
}

// checkPrinted reads f, a printed entry of size bytes, once through, chunk bytes at a time,
// and returns the length of its head and its verdict if its checksum holds and it is stored
// under k. The head must fit in the first chunk.
func checkPrinted(f io.Reader, size int64, k PrintKey, chunk int) (head int, v Verdict, ok bool) {
	if size < int64(len(printedMagic))+6 {
		return 0, v, false
	}
	buf := make([]byte, min(size, int64(chunk)))
	crc := crc32.New(castagnoli)
	// The checksum covers everything before the last 4 bytes, which hold it.
	end := size - 4
	var sum []byte
	for off := int64(0); off < size; {
		n, err := io.ReadFull(f, buf[:min(size-off, int64(len(buf)))])
		if err != nil {
			return 0, v, false
		}
		if off == 0 {
			if head, v, ok = printedHead(buf[:n], k); !ok || int64(head) > end {
				return 0, v, false
			}
		}
		covered := int(min(max(end-off, 0), int64(n)))
		crc.Write(buf[:covered])
		sum = append(sum, buf[covered:n]...)
		off += int64(n)
	}
	return head, v, crc.Sum32() == binary.BigEndian.Uint32(sum)
}

// printedHead reads the head of a printed entry from b, its first bytes, and returns the
// head's length and the verdict, if the entry is stored under k.
func printedHead(b []byte, k PrintKey) (int, Verdict, bool) {
	if !hasMagic(b, printedMagic) {
		return 0, 0, false
	}
	a := k.all()
	d := &entryDecoder{b: b[len(printedMagic):], shared: true}
	ok := d.byte() == printedFormat && d.int() == a.ruleset && d.string() == a.root && d.string() == a.folder &&
		d.string() == a.policy && d.string() == k.how()
	v := Verdict(d.byte())
	if d.err || !ok || v < VerdictPass || v > VerdictBlocked {
		return 0, 0, false
	}
	return len(b) - len(d.b), v, true
}

// WritePrinted writes reports, the whole result k names, to w in k's format and returns their
// verdict, and stores what it printed in the cache for CopyPrinted. A report that cannot be
// stored is only a later miss; an error is a failure to print.
func (c *Cache) WritePrinted(w io.Writer, k PrintKey, reports []SkillReport) (Verdict, error) {
	v := Judge(reports, k.Options.FailOn)
	keep := c.startPrinted(k, v)
	out := w
	if keep != nil {
		out = io.MultiWriter(w, keep)
	}
	if err := Write(out, k.Format, reports, k.Options); err != nil {
		keep.abort()
		return v, err
	}
	if keep.commit() {
		c.prune(printedFolder, maxPrintedEntries)
	}
	return v, nil
}

// printedWriter stores a printed entry as it is printed. Its writes never fail: a failure to
// store only drops the entry, so that the report is still printed.
type printedWriter struct {
	file *atomicfile.File
	w    *bufio.Writer
	crc  hash.Hash32
	size int
	err  error
}

// startPrinted starts storing the printed entry of k with verdict v; nil when the cache has no
// folder or the entry cannot be made.
func (c *Cache) startPrinted(k PrintKey, v Verdict) *printedWriter {
	if c == nil || c.Dir == "" || k.Root == "" {
		return nil
	}
	how := k.how()
	f, err := atomicfile.Create(c.printedFile(k, how), atomicfile.Options{DirPerm: 0o700})
	if err != nil {
		return nil
	}
	p := &printedWriter{file: f, w: bufio.NewWriterSize(f, 64<<10), crc: crc32.New(castagnoli)}
	a := k.all()
	head := binary.AppendUvarint(append([]byte(printedMagic), printedFormat), uint64(a.ruleset))
	for _, s := range []string{a.root, a.folder, a.policy, how} {
		head = appendString(head, s)
	}
	head = append(head, byte(v))
	p.Write(head)
	return p
}

// Write stores b, unless the entry failed or grew over maxPrinted.
func (p *printedWriter) Write(b []byte) (int, error) {
	if p == nil || p.err != nil {
		return len(b), nil
	}
	if p.size += len(b); p.size > maxPrinted {
		p.err = fmt.Errorf("printed report over %d bytes", maxPrinted)
		return len(b), nil
	}
	p.crc.Write(b)
	_, p.err = p.w.Write(b)
	return len(b), nil
}

// commit seals the entry with its checksum and puts it in place, or drops it if it failed,
// and reports whether it stored the entry.
func (p *printedWriter) commit() bool {
	if p == nil {
		return false
	}
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
	if p != nil {
		p.file.Abort()
	}
}
