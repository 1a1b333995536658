package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
)

// removePackedRef rewrites packed-refs without name, under its own lock.
// The caller holds the ref's lock.
func (r *Updates) removePackedRef(name string) error {
	lock, err := (*Locks)(r).acquireLock((*Refs)(r).packedRefsPath())
	if err != nil {
		return fmt.Errorf("locking packed-refs: %w", err)
	}
	defer lock.release()
	b, err := readSmallFile((*Refs)(r).packedRefsPath(), maxPackedRefsSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading packed-refs: %w", err)
	}
	out, found := dropPackedRef(b, name)
	if !found {
		return nil
	}
	if err := lock.commit(out); err != nil {
		return fmt.Errorf("rewriting packed-refs: %w", err)
	}
	return nil
}

// dropPackedRef removes name's line, and the peeled line after it, from
// the content of a packed-refs file.
func dropPackedRef(b []byte, name string) ([]byte, bool) {
	var out bytes.Buffer
	found, dropping := false, false
	for _, line := range bytes.SplitAfter(b, []byte("\n")) {
		trimmed := bytes.TrimSuffix(line, []byte("\n"))
		if dropping && len(trimmed) > 0 && trimmed[0] == '^' {
			continue
		}
		dropping = false
		if _, n, ok := parsePackedLine(trimmed); ok && n == name {
			found, dropping = true, true
			continue
		}
		out.Write(line)
	}
	return out.Bytes(), found
}
