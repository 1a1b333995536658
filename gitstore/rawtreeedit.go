package gitstore

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
)

// A large folder changed in one entry is patched as bytes: decoding the 100,000 entries of
// a skills folder into a slice, to find one and write them all back, costs more than the
// rest of a publish, and copying the bytes around the one entry costs a millisecond.

// treeEdit is where an entry goes in a raw tree: the bytes of the entry called name, if
// any, and the offset before which its replacement belongs.
type treeEdit struct {
	old        TreeEntry
	found      bool
	start, end int // of the old entry
	insert     int // where the new entry goes, in the tree without the old one
}

// locate finds where the entry called name is in t and where child (which has that name; nil
// for none) belongs. Without the offsets of t's entries, it scans every entry, checking their
// order as decodeTree does.
func (t RawTree) locate(name string, child *TreeEntry) (treeEdit, error) {
	if offs := t.offsets(); offs != nil {
		return offs.locate(t.data, name, child), nil
	}
	ed := treeEdit{insert: -1}
	var prev TreeEntry
	for pos := 0; pos < len(t.data); {
		e, next, err := decodeTreeEntry(t.data, pos)
		if err != nil {
			return treeEdit{}, t.corrupt(err, pos)
		}
		if pos > 0 && compareEntries(prev, e) >= 0 {
			return treeEdit{}, t.corrupt(fmt.Errorf("entry %q is out of order or duplicated", e.Name), pos)
		}
		prev = e
		switch {
		case e.Name == name:
			ed.old, ed.found, ed.start, ed.end = e, true, pos, next
		case ed.insert < 0 && child != nil && compareEntries(e, *child) > 0:
			ed.insert = pos
		}
		pos = next
	}
	if ed.insert < 0 {
		ed.insert = len(t.data)
	}
	if ed.found && ed.insert > ed.start {
		ed.insert -= ed.end - ed.start
	}
	return ed, nil
}

// joinParts returns parts joined in new memory, copying each byte once.
func joinParts(parts []string) []byte {
	out := make([]byte, 0, partsLen(parts))
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// spliceParts returns the bytes of t with ed's old entry removed and child, when not nil,
// inserted, in the pieces they come in: the runs of t kept around the entry inserted.
func (t RawTree) spliceParts(ed treeEdit, child *TreeEntry) []string {
	head, tail := t.data, "" // the tree without the old entry
	if ed.found {
		head, tail = t.data[:ed.start], t.data[ed.end:]
	}
	var add string
	if child != nil {
		add = string(encodeTree([]TreeEntry{*child}))
	}
	if ed.insert <= len(head) {
		return []string{head[:ed.insert], add, head[ed.insert:], tail}
	}
	at := ed.insert - len(head)
	return []string{head, tail[:at], add, tail[at:]}
}

// partsLen is the length of parts joined.
func partsLen(parts []string) int {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	return n
}

// setRawEntry writes t with the entry called name replaced by child (nil removes it), as
// setEntry does for parsed entries. It returns ZeroHash for a tree left empty.
func (r *Writes) setRawEntry(t RawTree, ed treeEdit, child *TreeEntry) (Hash, error) {
	switch {
	case !ed.found && child == nil:
		return t.id, nil
	case ed.found && child != nil && ed.old == *child:
		return t.id, nil
	}
	parts := t.spliceParts(ed, child)
	if partsLen(parts) == 0 {
		return ZeroHash, nil
	}
	// A publish of a candidate made on the tip it lands on gives the candidate's own version
	// of the folder: found among the trees kept, its id is taken without hashing or writing
	// megabytes again.
	if h, ok := r.rawTrees.twin(parts); ok && (*Objects)(r).hasObject(h) {
		return h, nil
	}
	b := joinParts(parts)
	h, err := r.writeOwnedObject(plumbing.TreeObject, b)
	if err != nil {
		return ZeroHash, err
	}
	r.rawTrees.add(h, b)
	return h, nil
}
