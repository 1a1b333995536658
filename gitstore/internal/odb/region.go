package odb

import (
	"fmt"
	"io"
	"os"
	"sync/atomic"
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
	// mapped is set when b is a memory map of the file, which mapFile made.
	mapped bool
	// dropEvery, when set, is how many bytes of pages of a map are read between two
	// releases of its pages (see dropPages): a long read of a large pack then keeps only
	// about that much of it resident, not all of it.
	dropEvery int64
	handed    atomic.Int64 // bytes of pages read since the last release
	drops     atomic.Int64 // releases so far
}

// residentPackBytes is how much of a pack's map, in pages read, is read between two releases
// of its pages, for a pack more than twice as large; a smaller pack stays resident whole.
var residentPackBytes int64 = 16 << 20

// dropPagesEvery makes a memory-mapped region release its pages after every n bytes of
// pages read from it; it does nothing for a region read through ReadAt.
func (g *region) dropPagesEvery(n int64) {
	if g.mapped {
		g.dropEvery = n
	}
}

// pageSize is the size of the system's memory pages.
var pageSize = int64(os.Getpagesize())

// pageSpan returns the bytes of the pages that [off, off+n) touches: what reading it may
// make resident.
func pageSpan(off, n int64) int64 {
	page := pageSize
	if n == 0 {
		return 0
	}
	return ((off+n-1)/page - off/page + 1) * page
}

// account counts n bytes of pages read from the map and releases its pages when dropEvery
// bytes have been since the last release. The pages stay in the page cache: a slice still in use
// reads the same bytes again from there, since the file is read-only and packs never change.
func (g *region) account(n int64) {
	if g.dropEvery > 0 && g.handed.Add(n) >= g.dropEvery {
		g.handed.Store(0)
		g.drops.Add(1)
		dropPages(g.b)
	}
}

// release drops the map's pages from resident memory now; the map stays valid.
func (g *region) release() {
	if g.mapped && g.b != nil {
		dropPages(g.b)
	}
}

// slice returns the bytes [off, off+n) of the region. With a memory map
// the result aliases the map and must not be written to.
func (g *region) slice(off, n int64) ([]byte, error) {
	if off < 0 || n < 0 || off > g.size || n > g.size-off {
		return nil, fmt.Errorf("%w: range %d+%d outside a file of %d bytes", ErrCorrupt, off, n, g.size)
	}
	if g.b != nil {
		g.account(pageSpan(off, n))
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
