package gitstore

import (
	"fmt"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// ReplacePath returns a new root tree in which the entry at path p is e,
// or is removed when e is nil. It creates missing folders, drops folders
// that end up empty, and writes only the trees along the path, so its
// cost grows with the depth of p and the size of those trees, never with
// the size of the repository. e.Name is ignored: the last element of p
// names the entry. A folder entry holding the empty tree counts as a
// removal. The result is never ZeroHash: an emptied root is the empty tree.
func (r *Writes) ReplacePath(root Hash, p string, e *TreeEntry) (Hash, error) {
	parts, err := splitPath(p)
	if err != nil {
		return ZeroHash, err
	}
	if len(parts) == 0 {
		return ZeroHash, fmt.Errorf("tree path is empty; name the entry to replace")
	}
	if e != nil {
		if e, err = newEntryAt(parts, *e); err != nil {
			return ZeroHash, err
		}
	}
	h, err := r.replace(root, parts, 0, e)
	if err != nil || !h.IsZero() {
		return h, err
	}
	return r.writeTree(nil)
}

// newEntryAt checks an entry about to be placed at parts, returning nil
// for an empty folder, which trees do not hold.
func newEntryAt(parts []string, e TreeEntry) (*TreeEntry, error) {
	for _, name := range parts {
		if err := checkEntryName(name); err != nil {
			return nil, fmt.Errorf("tree path %q: %w", strings.Join(parts, "/"), err)
		}
	}
	e.Name = parts[len(parts)-1]
	if err := checkNewEntry(e); err != nil {
		return nil, fmt.Errorf("tree path %q: %w", strings.Join(parts, "/"), err)
	}
	if e.isDir() && e.Hash == emptyTree {
		return nil, nil
	}
	return &e, nil
}

// replace rewrites tree so that parts[depth:] leads to e. It returns
// ZeroHash for a tree left empty.
func (r *Writes) replace(tree Hash, parts []string, depth int, e *TreeEntry) (Hash, error) {
	name, last := parts[depth], depth == len(parts)-1
	probe := e
	if !last {
		probe = &TreeEntry{Name: name, Mode: filemode.Dir}
	}
	s, err := r.slotOf(tree, name, probe)
	if err != nil || last {
		if err != nil {
			return ZeroHash, err
		}
		return s.set(e)
	}
	var sub Hash
	switch {
	case s.found && s.old.isDir():
		sub = s.old.Hash
	case s.found && e != nil:
		return ZeroHash, fmt.Errorf("tree path %q: %s is not a folder; remove it first",
			strings.Join(parts, "/"), strings.Join(parts[:depth+1], "/"))
	case e == nil:
		return tree, nil // nothing to remove
	}
	newSub, err := r.replace(sub, parts, depth+1, e)
	if err != nil {
		return ZeroHash, err
	}
	var child *TreeEntry
	if !newSub.IsZero() {
		child = &TreeEntry{Name: name, Mode: filemode.Dir, Hash: newSub}
	}
	return s.set(child)
}

// slot is the place of one name in a tree being rewritten: the entry there now, if any,
// and how to write the tree with another entry of that name there instead (nil: none).
type slot struct {
	old   TreeEntry
	found bool
	set   func(child *TreeEntry) (Hash, error)
}

// slotOf finds name in tree. probe has the name and the kind (folder or not) of what set
// will place, which decides where it goes in git's order; nil when set removes.
func (r *Writes) slotOf(tree Hash, name string, probe *TreeEntry) (slot, error) {
	raw, large, err := (*Objects)(r).largeTree(tree)
	if err != nil {
		return slot{}, err
	}
	if large {
		ed, err := raw.locate(name, probe)
		set := func(child *TreeEntry) (Hash, error) { return r.setRawEntry(raw, ed, child) }
		return slot{old: ed.old, found: ed.found, set: set}, err
	}
	entries, err := (*Objects)(r).readTree(tree)
	if err != nil {
		return slot{}, err
	}
	i, found := findEntry(entries, name)
	s := slot{found: found, set: func(child *TreeEntry) (Hash, error) { return r.setEntry(tree, entries, i, found, child) }}
	if found {
		s.old = entries[i]
	}
	return s, nil
}

// setEntry writes tree with entry i replaced by child (nil removes it).
func (r *Writes) setEntry(tree Hash, entries []TreeEntry, i int, found bool, child *TreeEntry) (Hash, error) {
	switch {
	case !found && child == nil:
		return tree, nil
	case found && child != nil && entries[i] == *child:
		return tree, nil
	}
	out := make([]TreeEntry, 0, len(entries)+1)
	out = append(out, entries...)
	if found {
		out = slices.Delete(out, i, i+1)
	}
	if child != nil {
		out = slices.Insert(out, insertPos(out, *child), *child)
	}
	if len(out) == 0 {
		return ZeroHash, nil
	}
	return r.writeTree(out)
}
