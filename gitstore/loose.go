package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
)

// listLoose returns the ids of the loose objects in objDir, in order.
// Other files in the fan-out folders, such as git's temporary files, are
// not objects and are skipped.
func listLoose(objDir string) ([]Hash, error) {
	fanout, err := os.ReadDir(objDir)
	if err != nil {
		return nil, fmt.Errorf("listing loose objects: %w", err)
	}
	var ids []Hash
	for _, d := range fanout {
		if len(d.Name()) != 2 || !d.IsDir() {
			continue
		}
		entries, err := os.ReadDir(filepath.Join(objDir, d.Name()))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("listing loose objects: %w", err)
		}
		for _, e := range entries {
			if id, ok := parseHex(d.Name() + e.Name()); ok && e.Type().IsRegular() {
				ids = append(ids, id)
			}
		}
	}
	return ids, nil
}

// loosePath returns where the loose copy of object h lives.
func loosePath(objDir string, h Hash) string {
	s := h.String()
	return filepath.Join(objDir, s[:2], s[2:])
}

// inIndex returns the ids that idx holds.
func inIndex(idx *idxfile.MemoryIndex, ids []Hash) []Hash {
	var out []Hash
	for _, h := range ids {
		if ok, err := idx.Contains(h); err == nil && ok {
			out = append(out, h)
		}
	}
	return out
}

// removeLoose deletes the loose copies of ids, in order, and the fan-out
// folders left empty. It holds objMu for one fan-out folder at a time,
// so that this Repo never writes an object into a folder that is being
// removed, nor reads a loose object half way through its deletion.
func (r *Packs) removeLoose(objDir string, ids []Hash) error {
	for start := 0; start < len(ids); {
		end := start
		for end < len(ids) && ids[end][0] == ids[start][0] {
			end++
		}
		if err := r.removeFanout(objDir, ids[start:end]); err != nil {
			return err
		}
		start = end
	}
	return nil
}

// removeFanout deletes loose objects that share one fan-out folder, and
// the folder if that empties it.
func (r *Packs) removeFanout(objDir string, ids []Hash) error {
	r.objMu.Lock()
	defer r.objMu.Unlock()
	for _, h := range ids {
		if err := os.Remove(loosePath(objDir, h)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing packed loose object %s: %w", h, err)
		}
	}
	os.Remove(filepath.Dir(loosePath(objDir, ids[0]))) // fails unless empty
	return nil
}
