package gitstore

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// TreeEntry is one entry of a git tree: a file, folder, symbolic link or
// submodule (gitlink).
type TreeEntry struct {
	Name string
	Mode filemode.FileMode
	Hash Hash
}

// emptyTree is the id of the tree with no entries.
var emptyTree = plumbing.NewHash("4b825dc642cb6eb9a060e54bf8d69288fbee4904")

func (e TreeEntry) isDir() bool { return e.Mode == filemode.Dir }

// compareNames orders entries the way git does: a folder sorts as if its
// name ended in "/".
func compareNames(a string, aDir bool, b string, bDir bool) int {
	n := min(len(a), len(b))
	if c := cmp.Compare(a[:n], b[:n]); c != 0 {
		return c
	}
	return cmp.Compare(nameByte(a, n, aDir), nameByte(b, n, bDir))
}

func nameByte(s string, i int, dir bool) byte {
	switch {
	case i < len(s):
		return s[i]
	case dir:
		return '/'
	}
	return 0
}

func compareEntries(a, b TreeEntry) int {
	return compareNames(a.Name, a.isDir(), b.Name, b.isDir())
}

// FindEntry returns the entry called name in entries, a tree's entries in git order.
func FindEntry(entries []TreeEntry, name string) (TreeEntry, bool) {
	if i, ok := findEntry(entries, name); ok {
		return entries[i], true
	}
	return TreeEntry{}, false
}

// findEntry returns the index of the entry called name in a tree sorted in git order.
func findEntry(entries []TreeEntry, name string) (int, bool) {
	return searchName(len(entries), func(i int) TreeEntry { return entries[i] }, name, fileFirst)
}

// Where a damaged tree holds a file and a folder of the same name, a lookup finds the file,
// which sorts first, as a scan meets it first, and an edit of a raw tree the folder, as its
// scan keeps the last entry of the name.
var (
	fileFirst   = []bool{false, true}
	folderFirst = []bool{true, false}
)

// searchName returns the index of the entry called name among n entries in git order, entry i
// being at(i). A file sorts under its name, a folder as if a slash followed it, so each is
// searched where it would be, in the order of kinds (true for a folder).
func searchName(n int, at func(int) TreeEntry, name string, kinds []bool) (int, bool) {
	for _, dir := range kinds {
		i := sort.Search(n, func(i int) bool {
			e := at(i)
			return compareNames(e.Name, e.isDir(), name, dir) >= 0
		})
		if i < n && at(i).Name == name {
			return i, true
		}
	}
	return 0, false
}

// insertPos returns where e belongs in a tree sorted in git order.
func insertPos(entries []TreeEntry, e TreeEntry) int {
	return sort.Search(len(entries), func(i int) bool { return compareEntries(entries[i], e) >= 0 })
}

// encodeTree serializes entries, which must already be in git order.
func encodeTree(entries []TreeEntry) []byte {
	size := 0
	for _, e := range entries {
		size += len(e.Name) + 8 + len(e.Hash)
	}
	buf := make([]byte, 0, size)
	for _, e := range entries {
		buf = strconv.AppendUint(buf, uint64(e.Mode), 8)
		buf = append(buf, ' ')
		buf = append(buf, e.Name...)
		buf = append(buf, 0)
		buf = append(buf, e.Hash[:]...)
	}
	return buf
}

// decodeTree parses a tree object. It refuses malformed or out-of-order
// entries and the names ".", ".." and "", which no honest git writes.
func decodeTree(h Hash, b []byte) ([]TreeEntry, error) {
	// One string holds every name: the entries' names are slices of it, so a tree of
	// 10,000 entries costs one allocation rather than 10,000. b is the caller's own copy of
	// the object, never changed afterwards, so the string is made without copying it.
	text := unsafe.String(unsafe.SliceData(b), len(b))
	entries := make([]TreeEntry, 0, len(b)/48+1)
	for pos := 0; pos < len(text); {
		e, next, err := decodeTreeEntry(text, pos)
		if err != nil {
			return nil, objectError(h, fmt.Errorf("tree %s: %w at byte %d (the object is corrupt; run `git fsck`)", h, err, pos))
		}
		if n := len(entries); n > 0 && compareEntries(entries[n-1], e) >= 0 {
			return nil, fmt.Errorf("tree %s: entry %q is out of order or duplicated (the object is corrupt; run `git fsck`)", h, e.Name)
		}
		entries = append(entries, e)
		pos = next
	}
	return entries, nil
}

func decodeTreeEntry(b string, pos int) (TreeEntry, int, error) {
	name, mode, next, err := scanTreeEntry(b, pos)
	if err != nil {
		return TreeEntry{}, 0, err
	}
	e := TreeEntry{Name: name, Mode: filemode.FileMode(mode)}
	copy(e.Hash[:], b[next-len(e.Hash):next])
	return e, next, nil
}

// scanTreeEntry checks the entry at pos as decodeTreeEntry does and returns its name, its
// mode and the offset of the next entry, without copying its id.
func scanTreeEntry(b string, pos int) (string, uint32, int, error) {
	sp := strings.IndexByte(b[pos:], ' ')
	if sp < 1 || sp > 7 {
		return "", 0, 0, fmt.Errorf("malformed mode")
	}
	mode, ok := parseOctal(b[pos : pos+sp])
	if !ok {
		return "", 0, 0, fmt.Errorf("malformed mode")
	}
	start := pos + sp + 1
	nul := strings.IndexByte(b[start:], 0)
	if nul < 0 || start+nul+1+20 > len(b) {
		return "", 0, 0, fmt.Errorf("truncated entry")
	}
	name := b[start : start+nul]
	if name == "" || name == "." || name == ".." || strings.IndexByte(name, '/') >= 0 {
		return "", 0, 0, fmt.Errorf("invalid entry name %q", name)
	}
	return name, mode, start + nul + 1 + 20, nil
}

// parseOctal parses a tree entry's mode: octal digits only, at most seven.
func parseOctal(s string) (uint32, bool) {
	var v uint32
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '7' {
			return 0, false
		}
		v = v<<3 | uint32(c-'0')
	}
	return v, len(s) > 0
}

// ReadTree returns the entries of tree h in git order. ZeroHash reads as
// the empty tree.
func (r *Objects) ReadTree(h Hash) ([]TreeEntry, error) {
	entries, err := r.readTree(h)
	return slices.Clone(entries), err
}

// ReadTreeShared returns the entries of tree h as ReadTree does, without copying them: they
// are shared with later reads of the same tree and must not be modified.
func (r *Objects) ReadTreeShared(h Hash) ([]TreeEntry, error) { return r.readTree(h) }

// readTree returns the cached, shared entries of tree h; callers must not
// modify them.
func (r *Objects) readTree(h Hash) ([]TreeEntry, error) {
	if h.IsZero() || h == emptyTree {
		return nil, nil
	}
	if entries, ok := r.trees.get(h); ok {
		return entries, nil
	}
	b, err := r.treeBytes(h)
	if err != nil {
		return nil, err
	}
	return r.keepParsed(h, b)
}

// keepParsed parses b, the content of tree h, and keeps the entries for readTree.
func (r *Objects) keepParsed(h Hash, b []byte) ([]TreeEntry, error) {
	entries, err := decodeTree(h, b)
	if err != nil {
		return nil, err
	}
	r.trees.add(h, entries)
	return entries, nil
}
