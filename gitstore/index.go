package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// lockedIndex is the index file read while its lock is held.
type lockedIndex struct {
	lock  *lockFile
	idx   *index.Index
	mtime time.Time // of the index file, for git's racy-clean rule
	// cacheTree is the data of the file's cache-tree extension, nil when it has none.
	cacheTree []byte
	// changed are the paths the update changed, whose cache-tree entries go.
	changed []string
}

// lockIndex takes index.lock and reads the index; a missing index is an
// empty one.
func (r *Repo) lockIndex() (*lockedIndex, error) {
	path := filepath.Join(r.gitDir, "index")
	lock, err := r.Locks().acquireLock(path)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	li := &lockedIndex{lock: lock, idx: &index.Index{Version: 2}}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return li, nil
	}
	if err == nil {
		err = li.decode(f, path)
		f.Close()
	}
	if err != nil {
		lock.release()
		return nil, err
	}
	return li, nil
}

func (li *lockedIndex) decode(f *os.File, path string) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if fi.Size() > maxIndexSize {
		return fmt.Errorf("%s: %w", path, errBadIndex)
	}
	li.mtime = fi.ModTime()
	b, err := readSized(f, fi.Size(), maxIndexSize)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if !decodeIndexFast(b, li.idx) {
		if err := decodeIndex(bytes.NewReader(b), li.idx, path); err != nil {
			return err
		}
	}
	_ = eachIndexExtension(b, func(sig string, data []byte) {
		if sig == cacheTreeSig {
			li.cacheTree = data
		}
	})
	return nil
}

// decodeIndex decodes the index file at path from rd, reporting the
// features go-git cannot read as ErrUnsupported.
func decodeIndex(rd io.Reader, idx *index.Index, path string) error {
	err := index.NewDecoder(rd).Decode(idx)
	switch {
	case errors.Is(err, index.ErrUnknownExtension):
		return unsupported(path, "index extension that go-git cannot read (split or sparse index); run `git update-index --no-split-index` and `git sparse-checkout disable`")
	case errors.Is(err, index.ErrUnsupportedVersion):
		return unsupported(path, "index format version; run `git update-index --index-version 2`")
	case err != nil:
		return fmt.Errorf("%s: reading index: %w; rebuild it with `git read-tree HEAD` if it is damaged", path, err)
	}
	return nil
}

// commit writes the index through its lock file.
func (li *lockedIndex) commit() error {
	idx := li.idx
	for _, e := range idx.Entries {
		if idx.Version == 2 && (e.SkipWorktree || e.IntentToAdd) {
			// Extended flags need index version 3 or later.
			idx.Version = 3
		}
	}
	data, ok := encodeIndex(idx, patchCacheTree(li.cacheTree, li.changed))
	if !ok {
		var buf bytes.Buffer
		if err := index.NewEncoder(&buf).Encode(idx); err != nil {
			li.lock.release()
			return fmt.Errorf("index: encoding: %w", err)
		}
		data = buf.Bytes()
	}
	if err := li.lock.commit(data); err != nil {
		return fmt.Errorf("index: writing: %w", err)
	}
	return nil
}
