package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// IndexTree returns the id of the tree that the index stages for folder
// dir, a slash path ("" is the whole tree), and false when the index
// stages nothing below dir. It reads the index of the repository's
// working tree (a linked worktree's own index), takes the id of every
// folder that the index's cache-tree records as unchanged and computes
// the others, storing the trees that are not yet stored so that TreeFS
// can read the result. Entries added with `git add -N` count as absent.
// An unmerged entry is an error; a sparse index matches ErrUnsupported.
func (r *Repo) IndexTree(dir string) (Hash, bool, error) {
	if r.mem {
		return ZeroHash, false, errors.New("index: a repository in memory has no index")
	}
	return r.indexTreeAt(filepath.Join(r.gitDir, "index"), dir)
}

// IndexFileTree is IndexTree for the index file at path, such as the one GIT_INDEX_FILE names
// while `git commit -a` or `git commit PATH...` runs the pre-commit hook.
func (r *Repo) IndexFileTree(path, dir string) (Hash, bool, error) {
	if r.mem {
		return ZeroHash, false, errors.New("index: a repository in memory has no index")
	}
	return r.indexTreeAt(path, dir)
}

// indexTreeAt is IndexTree for the index file at path.
func (r *Repo) indexTreeAt(path, dir string) (Hash, bool, error) {
	if _, err := splitPath(dir); err != nil {
		return ZeroHash, false, err
	}
	s, err := readStagedIndex(path)
	if errors.Is(err, fs.ErrNotExist) {
		return ZeroHash, false, nil
	}
	if err != nil {
		return ZeroHash, false, err
	}
	ents, err := s.under(dir)
	if err != nil {
		return ZeroHash, false, err
	}
	b := &stagedBuilder{r: r, path: path, valid: s.valid}
	return b.tree(dir, ents)
}

// stagedBuilder turns runs of index entries into stored trees.
type stagedBuilder struct {
	r     *Repo
	path  string
	valid map[string]Hash
}

// tree returns the id of the tree that ents, the entries below folder
// dir, make, and false when they make none.
func (b *stagedBuilder) tree(dir string, ents []*index.Entry) (Hash, bool, error) {
	if len(ents) == 0 {
		return ZeroHash, false, nil
	}
	if h, ok := b.valid[dir]; ok {
		// A folder holding only intent-to-add entries has the empty tree
		// as its cache-tree id, and git leaves it out.
		return h, h != emptyTree, nil
	}
	entries, err := b.children(dir, ents)
	if err != nil || len(entries) == 0 {
		return ZeroHash, false, err
	}
	h, err := b.r.Writes().writeTree(entries)
	if err != nil {
		return ZeroHash, false, fmt.Errorf("%s: writing the tree of %q: %w", b.path, dir, err)
	}
	return h, true, nil
}

// children returns the tree entries of folder dir. The index's order,
// by full path, is already the order git wants for a tree's entries.
func (b *stagedBuilder) children(dir string, ents []*index.Entry) ([]TreeEntry, error) {
	base := 0
	if dir != "" {
		base = len(dir) + 1
	}
	var out []TreeEntry
	for i := 0; i < len(ents); {
		e := ents[i]
		rel := e.Name[base:]
		slash := strings.IndexByte(rel, '/')
		if slash < 0 {
			if !e.IntentToAdd {
				out = append(out, TreeEntry{Name: rel, Mode: e.Mode, Hash: e.Hash})
			}
			i++
			continue
		}
		sub := e.Name[:base+slash]
		j := i + runEnd(ents[i:], sub)
		h, ok, err := b.tree(sub, ents[i:j])
		if err != nil {
			return nil, err
		}
		if n := len(out); ok && n > 0 && out[n-1].Name == rel[:slash] {
			return nil, fmt.Errorf("%s: %s is staged both as a file and as a folder: %w", b.path, sub, errBadIndex)
		}
		if ok {
			out = append(out, TreeEntry{Name: rel[:slash], Mode: filemode.Dir, Hash: h})
		}
		i = j
	}
	return out, nil
}

// runEnd returns how many entries at the start of ents lie below folder sub.
func runEnd(ents []*index.Entry, sub string) int {
	return sort.Search(len(ents), func(k int) bool {
		n := ents[k].Name
		return len(n) <= len(sub) || n[len(sub)] != '/' || n[:len(sub)] != sub
	})
}
