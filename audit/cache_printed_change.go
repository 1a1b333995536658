package audit

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The text report of a skills folder that changed since the cache printed an earlier version
// of it is stored as a change to the entry of that version, which must be stored whole (its
// base): the folders whose skills the change takes out, the blocks of the skills it puts in,
// and its tail. Layout:
//
//	magic "SGPC", format byte
//	uvarint ruleset, string root, string folder, string policy, string how
//	verdict byte
//	string base root, string tail
//	uvarint count; count × string folder taken out, in order
//	uvarint count; count × block put in: string path, tally, string block; in path order
//	4-byte big-endian CRC-32 (Castagnoli) of everything before it
//
// A skill of the base is taken out when its path is a folder taken out or lies below one, or
// when a block is put in at its path. The report is the base's head, the base's blocks that
// are not taken out and the blocks put in, in path order, and the tail. Printing it reads the
// base's index once through and copies the base's bytes between changes; storing it writes
// only what changed. A change is always to a base stored whole, so that reading one reads two
// files at most: the next change of the folder is stored as this one followed by it.
const (
	changedMagic = "SGPC"
	// maxChange bounds a stored change, which is read whole.
	maxChange = 32 << 20
	// minChangeLimit is how many skills a change may take out and put in, however few skills
	// its base has: one in changeShare of them, or this many.
	minChangeLimit = 64
)

// printedChange is a text report stored as a change to the printed report of its base.
type printedChange struct {
	base    string
	verdict Verdict
	tail    []byte
	// removed are folders taken out, in order; added are blocks put in, in path order.
	removed []string
	added   []addedBlock
}

// addedBlock is the block of one skill that a change puts in.
type addedBlock struct {
	path  string
	tally skillTally
	block []byte
}

// PrintedVersion is the latest version of a skills folder whose text report the cache holds.
type PrintedVersion struct {
	// Root is the tree object id of the folder's version.
	Root string
	// change is the report of Root as a change to its base; nil when it is stored whole.
	change *printedChange
}

// Latest returns the most recently used version of k's folder whose report the cache
// holds printed as k says, whatever k.Root; false when it holds none, or k's format is not
// text, the only one that Since changes.
func (c Printed) Latest(k PrintKey) (*PrintedVersion, bool) {
	if !c.keeps() || k.Format != FormatText {
		return nil, false
	}
	dir := filepath.Join(c.cache.Dir, printedFolder)
	for _, f := range agedFiles(dir) {
		root, isChange, ok := printedRoot(filepath.Join(dir, f.name), k)
		if !ok {
			continue
		}
		at := k
		at.Root = root
		if !isChange {
			return &PrintedVersion{Root: root}, true
		}
		if ch, ok := c.readChange(at); ok {
			return &PrintedVersion{Root: root, change: ch}, true
		}
	}
	return nil, false
}

// printedRoot reads the head of the printed entry at name and returns the tree object id it
// is stored under and whether it is a change, if it prints k's folder as k says.
func printedRoot(name string, k PrintKey) (root string, isChange, ok bool) {
	f, err := openEntryFile(name)
	if err != nil {
		return "", false, false
	}
	defer f.Close()
	head := make([]byte, 1024)
	n, _ := f.ReadAt(head, 0)
	head = head[:n]
	isChange = hasMagic(head, changedMagic)
	if !isChange && !hasMagic(head, printedMagic) {
		return "", false, false
	}
	a := k.all()
	d := &entryDecoder{b: head[len(printedMagic):]}
	if d.byte() != printedFormat || d.int() != a.ruleset {
		return "", false, false
	}
	root = d.string()
	ok = d.string() == a.folder && d.string() == a.policy && d.string() == k.how() && !d.err && root != ""
	return root, isChange, ok
}

// readChange reads the printed entry of k if it is a change; false when it is missing,
// stored whole, oversized, damaged or stored under another key.
func (c Printed) readChange(k PrintKey) (*printedChange, bool) {
	data, ok := readChangeFile(c.file(k))
	if !ok {
		return nil, false
	}
	body, err := checkedBody(data, changedMagic, "a printed change")
	if err != nil {
		return nil, false
	}
	d := &entryDecoder{b: body, shared: true}
	if !d.isPrintKey(k) {
		return nil, false
	}
	ch := &printedChange{verdict: Verdict(d.byte()), base: d.string()}
	if d.err || ch.verdict < VerdictPass || ch.verdict > VerdictBlocked || ch.base == "" {
		return nil, false
	}
	if ch.decodeChanges(d.b) != nil {
		return nil, false
	}
	return ch, true
}

// readChangeFile reads the file name whole if it starts as a stored change does and is not
// over maxChange.
func readChangeFile(name string) ([]byte, bool) {
	f, err := openEntryFile(name)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	magic := make([]byte, len(changedMagic))
	if _, err := f.ReadAt(magic, 0); err != nil || string(magic) != changedMagic {
		return nil, false
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxChange {
		return nil, false
	}
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, false
	}
	return data, true
}

// decodeChanges reads the tail, the folders taken out and the blocks put in from b, all that
// is left of a stored change after its base.
func (ch *printedChange) decodeChanges(b []byte) error {
	r := bytes.NewReader(b)
	x := &recordReader{r: r}
	ch.tail = x.bytes(nil, len(b))
	n := x.uint()
	if n > uint64(len(b)) {
		x.fail()
	}
	for range min(n, uint64(len(b))) {
		ch.removed = append(ch.removed, string(x.bytes(nil, maxIndexPath)))
	}
	n = x.uint()
	if n > uint64(len(b)) {
		x.fail()
	}
	for range min(n, uint64(len(b))) {
		a := addedBlock{path: string(x.bytes(nil, maxIndexPath))}
		a.tally = x.tally()
		a.block = x.bytes(nil, len(b))
		ch.added = append(ch.added, a)
	}
	if x.err == nil && (r.Len() != 0 || !slices.IsSorted(ch.removed) || !slices.IsSortedFunc(ch.added, byAddedPath)) {
		x.fail()
	}
	return x.err
}

func byAddedPath(a, b addedBlock) int { return strings.Compare(a.path, b.path) }

// encode returns the change as the entry of k stores it.
func (ch *printedChange) encode(k PrintKey) []byte {
	b := appendPrintedHead(nil, changedMagic, k, ch.verdict)
	b = appendString(appendString(b, ch.base), string(ch.tail))
	b = binary.AppendUvarint(b, uint64(len(ch.removed)))
	for _, p := range ch.removed {
		b = appendString(b, p)
	}
	b = binary.AppendUvarint(b, uint64(len(ch.added)))
	for _, a := range ch.added {
		b = appendString(appendTally(appendString(b, a.path), a.tally), string(a.block))
	}
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// then returns the change that makes ch's base into the version after ch's: ch, then the
// folders of drop taken out (each with everything below it) and the blocks of added put in.
func (ch *printedChange) then(drop []string, added []addedBlock) *printedChange {
	next := &printedChange{base: ch.base}
	next.removed = slices.Concat(ch.removed, drop)
	slices.Sort(next.removed)
	next.removed = slices.Compact(next.removed)
	gone := newFolderSet(drop)
	for _, a := range ch.added {
		if !gone.covers(a.path) {
			next.added = append(next.added, a)
		}
	}
	next.added = append(next.added, added...)
	slices.SortStableFunc(next.added, byAddedPath)
	// A later block of the same path replaces an earlier one.
	kept := next.added[:0]
	for i, a := range next.added {
		if i+1 == len(next.added) || next.added[i+1].path != a.path {
			kept = append(kept, a)
		}
	}
	next.added = kept
	return next
}

// folderSet is a set of folders, each standing for everything below it too.
type folderSet map[string]bool

func newFolderSet(folders []string) folderSet {
	s := make(folderSet, len(folders))
	for _, f := range folders {
		s[f] = true
	}
	return s
}

// covers reports whether p is one of the folders or lies below one.
func (s folderSet) covers(p string) bool {
	if len(s) == 0 {
		return false
	}
	for {
		if s[p] {
			return true
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return false
		}
		p = p[:i]
	}
}

// segment is a part of a changed report: a run of n bytes of the base's report from off, or,
// when added is not negative, the block ch.added[added].
type segment struct {
	off, n int64
	added  int
}

// changePlan is how to print a change from its base: the base's head, then segs, then the
// change's tail.
type changePlan struct {
	head int64
	segs []segment
	// tally is the tally of the report; of is how many skills the base has, and taken how
	// many of them the change takes out.
	tally     runTally
	taken, of int
}

// openChange opens the base of ch, a change of k's folder, and plans ch's report; false when
// the base is gone, damaged or cannot be changed. The caller closes the base.
func (c Printed) openChange(k PrintKey, ch *printedChange) (*printedEntry, *changePlan, bool) {
	base := k
	base.Root = ch.base
	e, ok := c.open(base)
	if !ok {
		return nil, nil, false
	}
	p, err := e.plan(ch)
	if err != nil {
		e.close()
		return nil, nil, false
	}
	return e, p, true
}

// plan reads the index of e, the base of ch, once through and plans ch's report.
func (e *printedEntry) plan(ch *printedChange) (*changePlan, error) {
	x, ok := e.blocks()
	if !ok {
		return nil, errCorrupt
	}
	p := &changePlan{head: x.head, of: x.count}
	gone := newFolderSet(ch.removed)
	run := segment{off: x.head, added: -1}
	cut := func() {
		if run.n > 0 {
			p.segs = append(p.segs, run)
		}
		run = segment{off: run.off + run.n, added: -1}
	}
	put := func(j int) {
		p.segs = append(p.segs, segment{added: j})
		p.tally.add(ch.added[j].tally, 1)
	}
	j := 0
	for range x.count {
		if !x.next() {
			return nil, x.err
		}
		for ; j < len(ch.added) && ch.added[j].path < string(x.rec.path); j++ {
			cut()
			put(j)
		}
		if gone.covers(string(x.rec.path)) || (j < len(ch.added) && ch.added[j].path == string(x.rec.path)) {
			cut()
			run.off += x.rec.n
			p.taken++
			continue
		}
		run.n += x.rec.n
		p.tally.add(x.rec.tally, 1)
	}
	cut()
	for ; j < len(ch.added); j++ {
		put(j)
	}
	if run.off > e.length {
		return nil, errCorrupt
	}
	return p, nil
}

// print writes the report of ch, whose base is e, as p plans it.
func (e *printedEntry) print(w io.Writer, ch *printedChange, p *changePlan) error {
	if err := e.copyRange(w, 0, p.head); err != nil {
		return err
	}
	for _, s := range p.segs {
		var err error
		if s.added >= 0 {
			_, err = w.Write(ch.added[s.added].block)
		} else {
			err = e.copyRange(w, s.off, s.n)
		}
		if err != nil {
			return err
		}
	}
	_, err := w.Write(ch.tail)
	return err
}

// copyChange writes the report that ch, the printed entry of k, stores as a change.
func (c Printed) copyChange(w io.Writer, k PrintKey, ch *printedChange) (Verdict, bool, error) {
	e, p, ok := c.openChange(k, ch)
	if !ok {
		return 0, false, nil
	}
	defer e.close()
	if err := e.print(w, ch, p); err != nil {
		return ch.verdict, true, err
	}
	c.markChange(e, c.file(k))
	return ch.verdict, true, nil
}

// Since prints the text report of the skills folder of k from the report the cache holds
// of prev, an earlier version of it (see Latest), and what changed since: the folders
// of drop, each with everything below it, no longer hold what prev printed for them, and
// scanned are the reports of the skills audited again, in any order. It stores the report as
// a change and returns its verdict. ok is false, and nothing is written, when the cache cannot
// print it so: prev's base is gone or damaged, or more than one skill in changeShare changed
// since the base, or minChangeLimit in a small folder. An error is a failure to write to w.
func (c Printed) Since(w io.Writer, k PrintKey, prev *PrintedVersion, drop []string, scanned []SkillReport) (Verdict, bool, error) {
	if !c.keeps() || k.Root == "" || k.Format != FormatText || prev == nil {
		return 0, false, nil
	}
	from := prev.change
	if from == nil {
		from = &printedChange{base: prev.Root}
	}
	ch := from.then(drop, addedBlocks(scanned, k.Options))
	e, p, ok := c.openChange(k, ch)
	if !ok {
		return 0, false, nil
	}
	defer e.close()
	if p.taken+len(ch.added) > max(p.of/changeShare, minChangeLimit) {
		return 0, false, nil
	}
	ch.verdict = p.tally.verdict()
	ch.tail = textTail(p.tally, k.Options)
	if err := e.print(w, ch, p); err != nil {
		return ch.verdict, true, err
	}
	name := c.file(k)
	if writeAtomic(name, ch.encode(k)) == nil {
		c.markChange(e, name)
		c.cache.prune(printedFolder, maxPrintedEntries)
	}
	return ch.verdict, true, nil
}

// markChange marks the base e and the change stored at name, a change to it, as used now,
// the change a microsecond later: a change needs its base, which must not be the first to
// go, and Latest must find the change.
func (c Printed) markChange(e *printedEntry, name string) {
	now := time.Now()
	touchAt(e.name, now)
	touchAt(name, now.Add(time.Microsecond))
}

// addedBlocks prints the block of each of reports, in path order.
func addedBlocks(reports []SkillReport, o WriteOptions) []addedBlock {
	out := make([]addedBlock, len(reports))
	for i, s := range reports {
		var b bytes.Buffer
		tw := newTextWriter(&b, o)
		tw.block(s, o.FailOn)
		_ = tw.finish()
		out[i] = addedBlock{path: s.Path, tally: tallyOf(s, o.FailOn), block: b.Bytes()}
	}
	slices.SortFunc(out, byAddedPath)
	return out
}

// textTail prints the tail of a text report of tally t.
func textTail(t runTally, o WriteOptions) []byte {
	var b bytes.Buffer
	tw := newTextWriter(&b, o)
	tw.tail(t, o.FailOn)
	_ = tw.finish()
	return b.Bytes()
}
