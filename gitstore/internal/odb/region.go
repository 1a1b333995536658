package odb

import (
	"fmt"
	"io"
	"os"
)

// noMmap makes mapFile read files with ReadAt instead of mapping them,
// as it does where memory maps are not used; tests set it.
var noMmap = false

// readerRegion gives access to size bytes of f through positioned reads
// on a new handle of the same file, which stays open until close.
func readerRegion(f *os.File, size int64) (*region, error) {
	if size <= 0 {
		return nil, corruptf(f.Name(), "size %d is empty", size)
	}
	g, err := os.Open(f.Name())
	if err != nil {
		return nil, fmt.Errorf("reopening %s: %w", f.Name(), err)
	}
	return &region{r: g, size: size, unmap: g.Close}, nil
}

// region is a read-only view of a file: a memory map when b is set,
// otherwise positioned reads from r. It is safe for concurrent use.
type region struct {
	b     []byte
	r     io.ReaderAt
	size  int64
	unmap func() error
}

// slice returns the bytes [off, off+n) of the region. With a memory map
// the result aliases the map and must not be written to.
func (g *region) slice(off, n int64) ([]byte, error) {
	if off < 0 || n < 0 || off > g.size || n > g.size-off {
		return nil, fmt.Errorf("%w: range %d+%d outside a file of %d bytes", ErrCorrupt, off, n, g.size)
	}
	if g.b != nil {
		return g.b[off : off+n : off+n], nil
	}
	buf := make([]byte, n)
	if _, err := g.r.ReadAt(buf, off); err != nil {
		return nil, fmt.Errorf("reading %d bytes at %d: %w", n, off, err)
	}
	return buf, nil
}

// close releases the map or the file.
func (g *region) close() error {
	if g.unmap == nil {
		return nil
	}
	err := g.unmap()
	g.unmap = nil
	g.b = nil
	return err
}
