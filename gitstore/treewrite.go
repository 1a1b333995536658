package gitstore

import (
	"fmt"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
)

// WriteTree stores a tree with the given entries, which it sorts in git
// order. It rejects names that git would not check out, modes git does
// not write, zero ids and duplicate names.
func (r *Writes) WriteTree(entries []TreeEntry) (Hash, error) {
	sorted := slices.Clone(entries)
	seen := make(map[string]bool, len(sorted))
	for _, e := range sorted {
		if err := checkNewEntry(e); err != nil {
			return ZeroHash, err
		}
		if seen[e.Name] {
			return ZeroHash, fmt.Errorf("tree entry %q appears twice; keep one", e.Name)
		}
		seen[e.Name] = true
	}
	slices.SortFunc(sorted, compareEntries)
	return r.writeTree(sorted)
}

func checkNewEntry(e TreeEntry) error {
	if err := checkEntryName(e.Name); err != nil {
		return err
	}
	if err := checkMode(e.Mode); err != nil {
		return fmt.Errorf("tree entry %q: %w", e.Name, err)
	}
	if e.Hash.IsZero() {
		return fmt.Errorf("tree entry %q has the zero id; write its object first", e.Name)
	}
	return nil
}

// writeTree stores entries already in git order and caches them.
func (r *Writes) writeTree(entries []TreeEntry) (Hash, error) {
	b := encodeTree(entries)
	h, err := r.writeObject(plumbing.TreeObject, b)
	if err != nil {
		return ZeroHash, err
	}
	r.trees.add(h, entries)
	r.rawTrees.add(h, b)
	return h, nil
}
