package odb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"sort"
)

// revIndex orders a pack's objects by offset, which tells where each
// entry ends. It is either git's .rev file, mapped, or an array of
// sorted offsets built from the idx.
type revIndex struct {
	file   string
	rev    []byte  // positions in idx order, from a .rev file
	sorted []int64 // offsets in ascending order, when there is no .rev
	region *region
}

var revMagic = []byte{'R', 'I', 'D', 'X'}

// loadRev maps the .rev file of p when git wrote one, and otherwise
// sorts the offsets of p's idx.
func loadRev(p *pack) (*revIndex, error) {
	r, err := openRevFile(p)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return r, err
	}
	return buildRev(p)
}

// openRevFile maps and checks the .rev file beside p's pack.
func openRevFile(p *pack) (*revIndex, error) {
	name := p.base + ".rev"
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() != int64(12+4*p.idx.n+trailerLen) {
		return nil, corruptf(name, "rev of %d bytes for %d objects", st.Size(), p.idx.n)
	}
	g, err := mapFile(f, st.Size())
	if err != nil {
		return nil, err
	}
	b, err := g.slice(0, st.Size())
	if err == nil {
		err = checkRevHeader(name, b, p.idx.packSum)
	}
	if err != nil {
		g.close()
		return nil, err
	}
	return &revIndex{file: name, rev: b[12 : 12+4*p.idx.n], region: g}, nil
}

// checkRevHeader checks the magic, version and hash id of a .rev file
// and that it describes the pack whose checksum is packSum.
func checkRevHeader(name string, b, packSum []byte) error {
	if !bytes.Equal(b[:4], revMagic) {
		return corruptf(name, "bad rev signature")
	}
	if v := binary.BigEndian.Uint32(b[4:]); v != 1 {
		return corruptf(name, "rev version %d is not supported", v)
	}
	if h := binary.BigEndian.Uint32(b[8:]); h != 1 {
		return corruptf(name, "rev hash id %d is not SHA-1", h)
	}
	if !bytes.Equal(b[len(b)-trailerLen:len(b)-20], packSum) {
		return corruptf(name, "rev is for another pack")
	}
	return nil
}

// buildRev sorts the offsets of p's idx.
func buildRev(p *pack) (*revIndex, error) {
	offs := make([]int64, p.idx.n)
	for i := range offs {
		o, err := p.idx.offset(i)
		if err != nil {
			return nil, err
		}
		offs[i] = o
	}
	radixSort(offs)
	return &revIndex{file: p.idx.file, sorted: offs}, nil
}

// len returns the number of objects.
func (r *revIndex) len() int {
	if r.rev != nil {
		return len(r.rev) / 4
	}
	return len(r.sorted)
}

// at returns the k-th smallest offset of p.
func (r *revIndex) at(p *pack, k int) (int64, error) {
	if r.rev == nil {
		return r.sorted[k], nil
	}
	pos := int(binary.BigEndian.Uint32(r.rev[k*4:]))
	if pos >= p.idx.n {
		return 0, corruptf(r.file, "rev position %d of %d objects", pos, p.idx.n)
	}
	return p.idx.offset(pos)
}

// next returns the offset that follows the entry at off: the next
// entry's offset, or where the pack's trailer starts. off must be the
// offset of an entry.
func (r *revIndex) next(p *pack, off int64, end int64) (int64, error) {
	n := r.len()
	var err error
	k := sort.Search(n, func(k int) bool {
		o, e := r.at(p, k)
		if e != nil {
			err = e
			return true
		}
		return o > off
	})
	if err != nil {
		return 0, err
	}
	if k == 0 {
		return 0, corruptf(p.file, "no object at offset %d", off)
	}
	if o, err := r.at(p, k-1); err != nil || o != off {
		return 0, corruptf(p.file, "no object at offset %d", off)
	}
	if k == n {
		return end, nil
	}
	return r.at(p, k)
}

// close unmaps the .rev file, if any.
func (r *revIndex) close() error {
	if r.region == nil {
		return nil
	}
	return r.region.close()
}
