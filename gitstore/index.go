package gitstore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// lockedIndex is the index file read while its lock is held.
type lockedIndex struct {
	lock *lockFile
	// idx holds every entry decoded, when raw is nil.
	idx *index.Index
	// raw is an index of version 2 or 3 held undecoded; spans are the runs of its entries
	// that setUnder replaced by under, the entries at and below prefixes.
	raw      *rawIndex
	spans    []indexSpan
	under    []*index.Entry
	prefixes []string
	// split is a split index held as its parts, when raw and idx are not used.
	split *splitRaw
	// splitting is what core.splitIndex says.
	splitting splitSetting
	mtime     time.Time // of the index file, for git's racy-clean rule
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
	li := &lockedIndex{lock: lock, idx: &index.Index{Version: 2}, splitting: readSplitSetting(r.commonDir)}
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
	if ri, ok := parseRawIndex(b); ok {
		li.raw, li.cacheTree = ri, ri.cacheTree()
		return nil
	}
	var link []byte
	_ = eachIndexExtension(b, func(sig string, data []byte) {
		switch sig {
		case cacheTreeSig:
			li.cacheTree = data
		case linkSig:
			link = data
		}
	})
	if link != nil {
		if s, ok := readSplitRaw(b, link, path); ok {
			li.split = s
			return nil
		}
	}
	return decodeIndexFile(b, path, li.idx)
}

// decodeIndexFile decodes the index file b at path, a split index with its shared index.
func decodeIndexFile(b []byte, path string, idx *index.Index) error {
	var link []byte
	_ = eachIndexExtension(b, func(sig string, data []byte) {
		if sig == linkSig {
			link = data
		}
	})
	switch {
	case link != nil:
		return readSplitIndex(b, link, path, idx)
	case decodeIndexFast(b, idx):
		return nil
	}
	return decodeIndex(bytes.NewReader(b), idx, path)
}

// decodeIndex decodes the index file at path from rd, reporting the
// features go-git cannot read as ErrUnsupported.
func decodeIndex(rd io.Reader, idx *index.Index, path string) error {
	err := index.NewDecoder(rd).Decode(idx)
	switch {
	case errors.Is(err, index.ErrUnknownExtension):
		return unsupported(path, "index extension that go-git cannot read (a sparse index, or a split index of index version 4); run `git sparse-checkout disable` and `git update-index --no-split-index`")
	case errors.Is(err, index.ErrUnsupportedVersion):
		return unsupported(path, "index format version; run `git update-index --index-version 2`")
	case err != nil:
		return fmt.Errorf("%s: reading index: %w; rebuild it with `git read-tree HEAD` if it is damaged", path, err)
	}
	return nil
}

// entriesUnder returns the entries at and below the prefixes, in order, and refuses an
// index with an unresolved conflict anywhere.
func (li *lockedIndex) entriesUnder(prefixes []string) ([]*index.Entry, error) {
	conflict := func(name string) error {
		return fmt.Errorf("worktree: %w: %s (unresolved merge conflict); resolve it and commit, then retry", ErrDirty, name)
	}
	if li.split != nil {
		es, ok := li.split.entriesUnder(prefixes)
		if !ok {
			return nil, fmt.Errorf("%s: %w", li.lock.target, errBadIndex)
		}
		return es, nil
	}
	if ri := li.raw; ri != nil {
		if ri.unmerged != "" {
			return nil, conflict(ri.unmerged)
		}
		es, ok := ri.entriesIn(ri.spans(prefixes))
		if !ok {
			return nil, fmt.Errorf("%s: %w", li.lock.target, errBadIndex)
		}
		return es, nil
	}
	var out []*index.Entry
	for _, e := range li.idx.Entries {
		if e.Stage != 0 {
			return nil, conflict(e.Name)
		}
		if underAny(e.Name, prefixes, false) {
			out = append(out, e)
		}
	}
	return out, nil
}

// setUnder replaces the entries at and below the prefixes by entries, all of which lie
// there, for commit to write.
func (li *lockedIndex) setUnder(prefixes []string, entries []*index.Entry) {
	slices.SortFunc(entries, func(a, b *index.Entry) int { return strings.Compare(a.Name, b.Name) })
	if li.split != nil {
		li.split.setUnder(prefixes, entries)
		return
	}
	if li.raw != nil {
		li.spans, li.under, li.prefixes = li.raw.spans(prefixes), entries, prefixes
		return
	}
	kept := li.idx.Entries[:0]
	for _, e := range li.idx.Entries {
		if !underAny(e.Name, prefixes, false) {
			kept = append(kept, e)
		}
	}
	li.idx.Entries = append(kept, entries...)
	li.idx.Cache = nil
}

// commit writes the index through its lock file: a split index as its split file alone when
// it can, an index that is to be split as a new shared index and an empty split file, the
// entries an update replaced spliced into the bytes of the others when it could, else every
// entry encoded.
func (li *lockedIndex) commit() error {
	cacheTree := patchCacheTree(li.cacheTree, li.changed)
	if li.split != nil {
		return li.commitSplit(cacheTree)
	}
	if li.raw != nil {
		split := li.splitting.wantsSplit(li.raw.count(), false)
		if parts, ok := li.raw.splice(li.spans, li.under, keepIf(!split, cacheTree)); ok {
			if split {
				head := parts[0]
				return li.writeSplit(parts, int(binary.BigEndian.Uint32(head[8:])), binary.BigEndian.Uint32(head[4:]), cacheTree)
			}
			return li.write(parts...)
		}
		if err := li.decodeAll(); err != nil {
			li.lock.release()
			return err
		}
	}
	return li.commitWhole(cacheTree)
}

// keepIf returns b when keep holds, else nil.
func keepIf(keep bool, b []byte) []byte {
	if keep {
		return b
	}
	return nil
}

// commitWhole writes every entry of idx, encoded, with the cache tree.
func (li *lockedIndex) commitWhole(cacheTree []byte) error {
	idx := li.idx
	raiseVersion(idx)
	data, ok := encodeIndex(idx, cacheTree)
	if !ok {
		var buf bytes.Buffer
		if err := index.NewEncoder(&buf).Encode(idx); err != nil {
			li.lock.release()
			return fmt.Errorf("index: encoding: %w", err)
		}
		data = buf.Bytes()
	}
	return li.write(data)
}

// raiseVersion makes an index of version 2 one of version 3 when an entry has extended
// flags, which need it.
func raiseVersion(idx *index.Index) {
	for _, e := range idx.Entries {
		if idx.Version == 2 && extended(e) {
			idx.Version = 3
		}
	}
}

// decodeAll decodes every entry of a raw index, with the replacement setUnder made, for an
// index splice cannot write.
func (li *lockedIndex) decodeAll() error {
	ri := li.raw
	li.raw = nil
	if !decodeIndexFast(ri.b, li.idx) {
		return fmt.Errorf("%s: %w", li.lock.target, errBadIndex)
	}
	if li.spans != nil {
		li.setUnder(li.prefixes, li.under)
	}
	return nil
}

func (li *lockedIndex) write(parts ...[]byte) error {
	if err := li.lock.commitParts(parts...); err != nil {
		return fmt.Errorf("index: writing: %w", err)
	}
	return nil
}
