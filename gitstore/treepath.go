package gitstore

import (
	"fmt"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// splitPath splits a slash-separated path inside a tree into its names.
// "" and "." are the root.
func splitPath(p string) ([]string, error) {
	if p == "" || p == "." {
		return nil, nil
	}
	if path.Clean(p) != p || strings.HasPrefix(p, "/") || p == ".." || strings.HasPrefix(p, "../") {
		return nil, fmt.Errorf("tree path %q is not a clean relative path (like skills/pdf-tools)", p)
	}
	parts := strings.Split(p, "/")
	if len(parts) > maxDepth {
		return nil, fmt.Errorf("tree path %q is deeper than %d folders", p, maxDepth)
	}
	return parts, nil
}

// EntryAt returns the entry at a slash path below tree root, reading only
// the trees along the path. The empty path returns the root itself as a
// folder entry. ZeroHash is the empty tree.
func (r *Objects) EntryAt(root Hash, p string) (TreeEntry, bool, error) {
	parts, err := splitPath(p)
	if err != nil {
		return TreeEntry{}, false, err
	}
	if len(parts) == 0 {
		return TreeEntry{Mode: filemode.Dir, Hash: root}, true, nil
	}
	tree := root
	for _, name := range parts[:len(parts)-1] {
		e, ok, err := r.childEntry(tree, name)
		if err != nil || !ok || !e.isDir() {
			return TreeEntry{}, false, err
		}
		tree = e.Hash
	}
	return r.childEntry(tree, parts[len(parts)-1])
}

// childEntry returns the entry called name in tree.
func (r *Objects) childEntry(tree Hash, name string) (TreeEntry, bool, error) {
	if raw, large, err := r.largeTree(tree); err != nil || large {
		if err != nil {
			return TreeEntry{}, false, err
		}
		return raw.Entry(name)
	}
	entries, err := r.readTree(tree)
	if err != nil {
		return TreeEntry{}, false, err
	}
	i, ok := findEntry(entries, name)
	if !ok {
		return TreeEntry{}, false, nil
	}
	return entries[i], true, nil
}
