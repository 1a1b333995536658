package gitstore

import (
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// stagedIndex is an index file read for the trees it stages.
type stagedIndex struct {
	path    string
	entries []*index.Entry
	valid   map[string]Hash // cache-tree ids of unchanged folders, by slash path
}

// readStagedIndex reads and checks the index file at path.
func readStagedIndex(path string) (*stagedIndex, error) {
	b, err := readIndexFile(path)
	if err != nil {
		return nil, err
	}
	idx := &index.Index{}
	if err := decodeIndexFile(b, path, idx); err != nil {
		return nil, err
	}
	var tree []byte
	err = eachIndexExtension(b, func(sig string, data []byte) {
		if sig == cacheTreeSig {
			tree = data
		}
	})
	valid := map[string]Hash{}
	if err == nil && tree != nil {
		valid, err = parseCacheTree(tree)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s := &stagedIndex{path: path, entries: idx.Entries, valid: valid}
	return s, s.check()
}

func readIndexFile(path string) ([]byte, error) {
	f, size, err := openIndexFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readOpenIndex(f, size, path)
}

// openIndexFile opens the index file at path and returns it with its size, refusing one that
// is not a regular file or is larger than any index is read.
func openIndexFile(path string) (*os.File, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err == nil && (!fi.Mode().IsRegular() || fi.Size() > maxIndexSize) {
		err = errBadIndex
	}
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	return f, fi.Size(), nil
}

// readOpenIndex reads the size bytes of the index file f at path.
func readOpenIndex(f *os.File, size int64, path string) ([]byte, error) {
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, fmt.Errorf("%s: reading index: %w", path, err)
	}
	return b, nil
}

// check refuses what has no place in a tree: unmerged entries, folders
// (a sparse index), odd modes, malformed paths and entries out of order.
func (s *stagedIndex) check() error {
	for i, e := range s.entries {
		switch {
		case e.Stage != 0: // not index.Merged, which go-git defines as 1
			return fmt.Errorf("%s: %s is unmerged; resolve the conflict and stage the result (`git add %s`)", s.path, e.Name, e.Name)
		case e.Mode == filemode.Dir:
			return unsupported(s.path, fmt.Sprintf("sparse index (the folder %s is one index entry); run `git sparse-checkout disable`", e.Name))
		case checkMode(e.Mode) != nil:
			return fmt.Errorf("%s: %s: %w; the index is damaged: rebuild it with `git read-tree HEAD`", s.path, e.Name, checkMode(e.Mode))
		case !validIndexPath(e.Name):
			return fmt.Errorf("%s: path %q: %w", s.path, e.Name, errBadIndex)
		case i > 0 && s.entries[i-1].Name >= e.Name:
			return fmt.Errorf("%s: %q is out of order or duplicated: %w", s.path, e.Name, errBadIndex)
		}
	}
	return nil
}

// validIndexPath reports whether p is a relative slash path whose parts
// are neither empty nor "." nor "..".
func validIndexPath(p string) bool {
	start := 0
	for i := 0; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		part := p[start:i]
		if part == "" || part == "." || part == ".." {
			return false
		}
		start = i + 1
	}
	return true
}

// under returns the entries below folder dir ("" is the root), which are
// contiguous in the index.
func (s *stagedIndex) under(dir string) ([]*index.Entry, error) {
	es := s.entries
	if dir == "" {
		return es, nil
	}
	i := sort.Search(len(es), func(i int) bool { return es[i].Name >= dir })
	if i < len(es) && es[i].Name == dir && !es[i].IntentToAdd {
		return nil, fmt.Errorf("%s: %s is staged as a file, not a folder", s.path, dir)
	}
	// The entries below dir are those from dir+"/" up to dir+"0", '0'
	// being the byte after '/'.
	lo := sort.Search(len(es), func(i int) bool { return es[i].Name >= dir+"/" })
	hi := sort.Search(len(es), func(i int) bool { return es[i].Name >= dir+"0" })
	return es[lo:hi], nil
}
