package odb

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
)

// pack is an open pack file and its index, immutable after openPack.
type pack struct {
	file   string // path of the .pack file
	base   string // path without the .pack extension
	idx    *idx
	idxMap *region
	data   *region
	size   int64
}

// openPack opens the pack whose idx is base+".idx" and pack
// base+".pack", and checks that they belong together.
func openPack(base string) (*pack, error) {
	p := &pack{file: base + ".pack", base: base}
	if err := p.openIdx(); err != nil {
		return nil, err
	}
	if err := p.openData(); err != nil {
		p.idxMap.close()
		return nil, err
	}
	return p, nil
}

// openIdx maps and parses the idx file.
func (p *pack) openIdx() error {
	g, err := mapWhole(p.base + ".idx")
	if err != nil {
		return err
	}
	b, err := g.slice(0, g.size)
	if err == nil {
		p.idx, err = parseIdx(p.base+".idx", b)
	}
	if err != nil {
		g.close()
		return err
	}
	p.idxMap = g
	return nil
}

// openData maps the pack file and checks its header and trailer
// against the idx.
func (p *pack) openData() error {
	g, err := mapWhole(p.file)
	if err != nil {
		return err
	}
	if err := checkPackHeader(p.file, g, p.idx); err != nil {
		g.close()
		return err
	}
	if g.size > 2*residentPackBytes {
		// A pack this large is read far apart: keep what is resident of it bounded.
		g.dropPagesEvery(residentPackBytes)
	}
	p.data, p.size = g, g.size
	return nil
}

// checkPackHeader checks the signature, version, object count and
// trailing checksum of a pack against its idx.
func checkPackHeader(file string, g *region, x *idx) error {
	if g.size < 12+20 {
		return corruptf(file, "pack of %d bytes is too short", g.size)
	}
	h, err := g.slice(0, 12)
	if err != nil {
		return err
	}
	if string(h[:4]) != "PACK" {
		return corruptf(file, "bad pack signature")
	}
	if v := binary.BigEndian.Uint32(h[4:]); v != 2 && v != 3 {
		return corruptf(file, "pack version %d is not supported", v)
	}
	if n := binary.BigEndian.Uint32(h[8:]); int64(n) != int64(x.n) {
		return corruptf(file, "pack has %d objects, its idx %d", n, x.n)
	}
	sum, err := g.slice(g.size-20, 20)
	if err != nil {
		return err
	}
	if !bytes.Equal(sum, x.packSum) {
		return corruptf(file, "pack checksum differs from the one in %s", x.file)
	}
	return nil
}

// mapWhole opens name and maps all of it.
func mapWhole(name string) (*region, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return mapFile(f, st.Size())
}

// end is the offset where the pack's trailing checksum starts.
func (p *pack) end() int64 { return p.size - 20 }

// lookup returns the offset of id in the pack.
func (p *pack) lookup(id *[20]byte) (int64, bool, error) {
	i, ok := p.idx.find(id)
	if !ok {
		return 0, false, nil
	}
	off, err := p.idx.offset(i)
	if err == nil && (off < 12 || off >= p.end()) {
		err = corruptf(p.idx.file, "offset %d outside the pack", off)
	}
	return off, err == nil, err
}

// close unmaps the pack and its idx.
func (p *pack) close() error {
	err := p.data.close()
	if e := p.idxMap.close(); err == nil {
		err = e
	}
	return err
}

// packBase returns the path of a pack without its extension when name
// is the name of a pack's idx file.
func packBase(dir, name string) (string, bool) {
	if !strings.HasPrefix(name, "pack-") || !strings.HasSuffix(name, ".idx") {
		return "", false
	}
	return filepath.Join(dir, strings.TrimSuffix(name, ".idx")), true
}
