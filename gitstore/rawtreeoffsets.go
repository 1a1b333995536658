package gitstore

import (
	"sort"
	"sync"
	"sync/atomic"
)

// treeOffsets holds the offset of every entry of a large tree, found by one scan that also
// checks the entries are in strict git order, as decodeTree does. A command looks several
// skills up in, and writes into, the same version of a folder of 100,000 skills: each lookup
// is then a binary search, not a scan of megabytes.
type treeOffsets struct {
	once sync.Once
	// at is the offset of each entry, and last the end of the tree; nil when the tree does
	// not decode or is out of order, which lookups then scan, as they always did.
	at []int32
	// lookups counts the lookups made before the offsets were taken: the first scans unless
	// a near version is kept (see lookupOffsets), as a tree looked up once costs less that way.
	lookups atomic.Int32
	// near takes the offsets from a kept version of the folder near this one; ok is false
	// when none is kept. ready is set once the offsets are taken.
	near  func(data string) (at []int32, ok bool)
	ready atomic.Bool
}

// offsets returns the offsets of t's entries, scanning t the first time; nil when t is not
// kept or is damaged.
func (t RawTree) offsets() *treeOffsets {
	if t.offs == nil {
		return nil
	}
	t.offs.once.Do(func() {
		at, ok := t.nearOffsets()
		if !ok {
			at = scanOffsets(t.data)
		}
		t.offs.at = at
		t.offs.ready.Store(true)
	})
	if t.offs.at == nil {
		return nil
	}
	return t.offs
}

// nearOffsets takes t's offsets from a kept version near it; ok is false when none is kept.
func (t RawTree) nearOffsets() ([]int32, bool) {
	if t.offs.near == nil {
		return nil, false
	}
	return t.offs.near(t.data)
}

// lookupOffsets is offsets for a lookup. The first lookup of a tree takes them only when a
// near version is kept, which derives them for a pass over the bytes the two share; without
// one, a scan for the name's bytes answers faster than taking the offsets (a candidate's
// version of the folder, looked up once), and a second lookup takes them.
func (t RawTree) lookupOffsets() *treeOffsets {
	if t.offs == nil {
		return nil
	}
	if t.offs.lookups.Add(1) == 1 && !t.offs.ready.Load() {
		at, ok := t.nearOffsets()
		if !ok {
			return nil
		}
		t.offs.once.Do(func() {
			t.offs.at = at
			t.offs.ready.Store(true)
		})
	}
	return t.offsets()
}

// scanOffsets returns the offset of every entry of data and its end; nil when an entry does
// not decode or is out of order.
func scanOffsets(data string) []int32 {
	if len(data) > maxTreeSize {
		return nil
	}
	at := make([]int32, 0, len(data)/40+2)
	var prev string
	var prevDir bool
	for pos := 0; pos < len(data); {
		name, mode, next, err := scanTreeEntry(data, pos)
		dir := isDirMode(mode)
		if err != nil || pos > 0 && compareNames(prev, prevDir, name, dir) >= 0 {
			return nil
		}
		at = append(at, int32(pos))
		prev, prevDir, pos = name, dir, next
	}
	return append(at, int32(len(data)))
}

// count is the number of entries.
func (o *treeOffsets) count() int { return len(o.at) - 1 }

// entry decodes entry i of data, which decoded when the offsets were taken.
func (o *treeOffsets) entry(data string, i int) TreeEntry {
	e, _, _ := decodeTreeEntry(data, int(o.at[i]))
	return e
}

// find returns the entry of data called name.
func (o *treeOffsets) find(data, name string) (TreeEntry, bool) {
	i, ok := o.index(data, name, fileFirst)
	if !ok {
		return TreeEntry{}, false
	}
	return o.entry(data, i), true
}

// index returns the index of the entry of data called name, searched in the order of kinds.
func (o *treeOffsets) index(data, name string, kinds []bool) (int, bool) {
	return searchName(o.count(), func(i int) TreeEntry { return o.entry(data, i) }, name, kinds)
}

// locate is RawTree.locate by binary search: where the entry called name is, and where child
// (nil for none) goes in data without that entry.
func (o *treeOffsets) locate(data, name string, child *TreeEntry) treeEdit {
	ed := treeEdit{insert: len(data)}
	if i, ok := o.index(data, name, folderFirst); ok {
		ed.old, ed.found, ed.start, ed.end = o.entry(data, i), true, int(o.at[i]), int(o.at[i+1])
	}
	if child != nil {
		// The first entry after child, the old one aside: one that sorts after child has
		// only entries that do after it.
		j := sort.Search(o.count(), func(i int) bool { return compareEntries(o.entry(data, i), *child) > 0 })
		if ed.found && int(o.at[j]) == ed.start {
			j++
		}
		ed.insert = int(o.at[j])
	}
	if ed.found && ed.insert > ed.start {
		ed.insert -= ed.end - ed.start
	}
	return ed
}
