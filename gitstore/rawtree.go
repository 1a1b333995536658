package gitstore

import (
	"fmt"
	"sort"
	"strings"
	"unsafe"
)

// RawTree is a tree object read but not decoded: comparing two versions of a large folder
// costs a scan of their bytes, and only the entries that differ are decoded. The zero
// RawTree is the empty tree.
type RawTree struct {
	id   Hash
	data string
	// offs finds entries by binary search in a large tree, which the cache keeps; nil for
	// any other tree, whose entries are scanned.
	offs *treeOffsets
}

// ReadRawTree reads tree h without decoding it. ZeroHash reads as the empty tree.
func (r *Objects) ReadRawTree(h Hash) (RawTree, error) {
	if h.IsZero() || h == emptyTree {
		return RawTree{}, nil
	}
	b, offs, err := r.keptTree(h)
	if err != nil {
		return RawTree{}, err
	}
	return newRawTree(h, b, offs), nil
}

// newRawTree is tree h, whose content is b and the offsets of its entries offs (nil when not
// kept). b is never changed, so the tree's string shares it.
func newRawTree(h Hash, b []byte, offs *treeOffsets) RawTree {
	return RawTree{id: h, data: unsafe.String(unsafe.SliceData(b), len(b)), offs: offs}
}

// largeTree returns the bytes of tree h when it is large, so that the caller works on the
// bytes; ok is false otherwise, and the caller uses readTree.
func (r *Objects) largeTree(h Hash) (RawTree, bool, error) {
	if h.IsZero() || h == emptyTree {
		return RawTree{}, false, nil
	}
	// A tree held parsed is edited parsed, unless it is large: copying its entries and
	// encoding them again costs more than splicing its bytes, and a batch that edits each
	// version of a folder of 10,000 skills would do so for every publish.
	if entries, ok := r.trees.get(h); ok && len(entries) < rawTreeMinEntries {
		return RawTree{}, false, nil
	}
	b, offs, err := r.keptTree(h)
	if err != nil {
		return RawTree{}, false, err
	}
	if len(b) < rawTreeMinSize {
		// The caller reads a small tree parsed: parsing it now spares reading it twice, which
		// a listing of 10,000 skills did for every skill's folder. A tree that does not parse
		// is left for the caller's readTree to report.
		_, _ = r.keepParsed(h, b)
		return RawTree{}, false, nil
	}
	return newRawTree(h, b, offs), true, nil
}

// ID returns the tree's id; ZeroHash for the empty tree.
func (t RawTree) ID() Hash { return t.id }

// Size returns the size of the tree object in bytes.
func (t RawTree) Size() int { return len(t.data) }

// Has reports whether the tree has an entry called name, of any mode.
func (t RawTree) Has(name string) (bool, error) {
	_, ok, err := t.Entry(name)
	return ok, err
}

// Entry returns the entry called name, without decoding the tree: looking one skill up in a
// folder of 100,000 costs a scan of its bytes the first time, and a binary search over the
// offsets of its entries after, and no allocation.
func (t RawTree) Entry(name string) (TreeEntry, bool, error) {
	if offs := t.lookupOffsets(); offs != nil {
		e, ok := offs.find(t.data, name)
		return e, ok, nil
	}
	// Every entry called name holds the bytes "name\x00": where they are absent, so is the
	// entry, and only a tree that holds them is decoded to be sure.
	if !strings.Contains(t.data, name+"\x00") {
		return TreeEntry{}, false, nil
	}
	for pos := 0; pos < len(t.data); {
		e, next, err := decodeTreeEntry(t.data, pos)
		if err != nil {
			return TreeEntry{}, false, t.corrupt(err, pos)
		}
		if e.Name == name {
			return e, true, nil
		}
		pos = next
	}
	return TreeEntry{}, false, nil
}

// corrupt words a decoding error of the tree at byte pos.
func (t RawTree) corrupt(err error, pos int) error {
	return objectError(t.id, fmt.Errorf("tree %s: %w at byte %d (the object is corrupt; run `git fsck`)", t.id, err, pos))
}

// DiffRawTrees calls fn, in git order, for every name whose entry differs between trees a
// and b: the entry on each side, a zero TreeEntry on the side that lacks it. Runs of
// identical bytes are passed over without decoding their entries, so comparing two
// versions of a folder of 10,000 entries that differ in one costs a memory compare.
func DiffRawTrees(a, b RawTree, fn func(ea, eb TreeEntry) error) error {
	d := rawDiff{a: a, b: b, fn: fn}
	return d.run()
}

// rawDiff is one comparison of two raw trees: i and j are the offsets of the next entry of
// each side.
type rawDiff struct {
	a, b RawTree
	i, j int
	fn   func(ea, eb TreeEntry) error
}

func (d *rawDiff) run() error {
	for d.i < len(d.a.data) || d.j < len(d.b.data) {
		if done, err := d.skipSame(); done || err != nil {
			return err
		}
		if err := d.step(); err != nil {
			return err
		}
	}
	return nil
}

// skipSame passes over the entries both sides hold byte for byte from the current offsets:
// up to the first byte where they differ, or to the end of the shorter side. A folder that
// gained or lost an entry is then compared with a memory compare up to that entry, and again
// once the sides line up. done is true when the rest is identical.
func (d *rawDiff) skipSame() (done bool, err error) {
	ra, rb := d.a.data[d.i:], d.b.data[d.j:]
	n := min(len(ra), len(rb))
	q := firstDiff(ra[:n], rb[:n])
	if q < 0 {
		if len(ra) == len(rb) {
			return true, nil
		}
		q = n
	}
	// Every entry that ends at or before q is the same on both sides.
	if n, ok := d.sameByOffsets(q); ok {
		d.i, d.j = d.i+n, d.j+n
		return false, nil
	}
	for pos := 0; ; {
		end, ok := entryEnd(ra, pos)
		if !ok || end > q {
			d.i, d.j = d.i+pos, d.j+pos
			return false, nil
		}
		pos = end
	}
}

// sameByOffsets is how far, from the current offsets, the entries that end at or before q
// reach, found by a binary search over the offsets of either side's entries; ok is false when
// neither side is a kept tree. A batch of publishes compares each version of a folder of
// 10,000 skills with the next, two or three times: scanning to the entry that differs cost
// a second of a batch of 10,000.
func (d *rawDiff) sameByOffsets(q int) (int, bool) {
	for _, side := range [2]struct {
		t    RawTree
		from int
	}{{d.a, d.i}, {d.b, d.j}} {
		offs := side.t.offsets()
		if offs == nil {
			continue
		}
		k := sort.Search(len(offs.at), func(k int) bool { return int(offs.at[k]) > side.from+q })
		return int(offs.at[k-1]) - side.from, true
	}
	return 0, false
}

// step decodes the next entry of each side and reports the one that sorts first, or both
// when they have the same name and differ.
func (d *rawDiff) step() error {
	ea, na, err := d.next(d.a, d.i)
	if err != nil {
		return err
	}
	eb, nb, err := d.next(d.b, d.j)
	if err != nil {
		return err
	}
	switch c := compareSides(ea, eb); {
	case c < 0:
		d.i = na
		return d.fn(ea, TreeEntry{})
	case c > 0:
		d.j = nb
		return d.fn(TreeEntry{}, eb)
	}
	d.i, d.j = na, nb
	if ea == eb {
		return nil
	}
	return d.fn(ea, eb)
}

// next decodes the entry of t at pos; past the end it is the zero entry.
func (d *rawDiff) next(t RawTree, pos int) (TreeEntry, int, error) {
	if pos >= len(t.data) {
		return TreeEntry{}, pos, nil
	}
	e, n, err := decodeTreeEntry(t.data, pos)
	if err != nil {
		return TreeEntry{}, 0, t.corrupt(err, pos)
	}
	return e, n, nil
}

// compareSides orders two entries, a zero entry (an exhausted side) sorting last.
func compareSides(a, b TreeEntry) int {
	switch {
	case a.Name == "":
		return 1
	case b.Name == "":
		return -1
	}
	return compareEntries(a, b)
}

// entryEnd returns the offset just past the entry of s starting at pos, without decoding
// it; ok is false when none starts there.
func entryEnd(s string, pos int) (int, bool) {
	nul := strings.IndexByte(s[pos:], 0)
	if nul < 0 || pos+nul+1+20 > len(s) {
		return 0, false
	}
	return pos + nul + 1 + 20, true
}

// firstDiff returns the offset of the first byte where a and b, of equal length, differ, or
// -1 when they are equal. Blocks are compared whole first, which the runtime does with
// vector instructions.
func firstDiff(a, b string) int {
	const block = 512
	off := 0
	for len(a)-off > block && a[off:off+block] == b[off:off+block] {
		off += block
	}
	if a[off:] == b[off:] {
		return -1
	}
	for off < len(a) && a[off] == b[off] {
		off++
	}
	return off
}
