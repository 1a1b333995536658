package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// maxPackedRefsSize bounds the packed-refs file this package parses.
const maxPackedRefsSize = 512 << 20

// packedRefsCache keeps the parsed packed-refs file until the file
// changes; git rewrites it by rename, so a new file means new content.
type packedRefsCache struct {
	mu    sync.Mutex
	fi    os.FileInfo
	mtime time.Time
	refs  map[string]Hash
}

func (r *Refs) packedRefsPath() string { return filepath.Join(r.commonDir, "packed-refs") }

// packedRefs returns the refs in packed-refs, by full name.
func (r *Refs) packedRefs() (map[string]Hash, error) {
	c := &r.packed
	c.mu.Lock()
	defer c.mu.Unlock()
	f, err := os.Open(r.packedRefsPath())
	if errors.Is(err, fs.ErrNotExist) {
		c.fi, c.refs = nil, nil
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading packed-refs: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("reading packed-refs: %w", err)
	}
	if c.fi != nil && os.SameFile(c.fi, fi) && c.fi.Size() == fi.Size() && c.mtime.Equal(fi.ModTime()) {
		return c.refs, nil
	}
	refs, err := readPackedRefs(f, fi.Size())
	if err != nil {
		return nil, err
	}
	c.fi, c.mtime, c.refs = fi, fi.ModTime(), refs
	return refs, nil
}

func readPackedRefs(f *os.File, size int64) (map[string]Hash, error) {
	if size > maxPackedRefsSize {
		return nil, fmt.Errorf("packed-refs is %d bytes, larger than the limit of %d bytes", size, int64(maxPackedRefsSize))
	}
	b, err := io.ReadAll(io.LimitReader(f, maxPackedRefsSize))
	if err != nil {
		return nil, fmt.Errorf("reading packed-refs: %w", err)
	}
	return parsePackedRefs(b)
}

// parsePackedRefs parses git's packed-refs format: a header comment,
// "<id> <name>" lines, and "^<id>" lines that peel the tag above them.
func parsePackedRefs(b []byte) (map[string]Hash, error) {
	refs := map[string]Hash{}
	for n, line := range bytes.Split(b, []byte("\n")) {
		if len(line) == 0 || line[0] == '#' || line[0] == '^' {
			continue
		}
		h, name, ok := parsePackedLine(line)
		if !ok {
			return nil, fmt.Errorf("packed-refs: line %d is malformed; repair it with `git pack-refs --all` or restore it from a backup", n+1)
		}
		refs[name] = h
	}
	return refs, nil
}

func parsePackedLine(line []byte) (Hash, string, bool) {
	hexID, name, ok := bytes.Cut(line, []byte(" "))
	h, valid := parseHex(string(hexID))
	if !ok || !valid || CheckRefName(string(name)) != nil {
		return ZeroHash, "", false
	}
	return h, string(name), true
}
