package odb

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// settle is how long after a pack folder's change its mtime is trusted
// to tell that nothing changed since: within it, a later change could
// carry the same mtime on file systems with coarse timestamps.
const settle = 2 * time.Second

// objDir is one objects folder: the repository's own or an alternate.
type objDir struct {
	path  string
	packs atomic.Pointer[[]*pack] // read without a lock

	mu       sync.Mutex // held while scanning
	byBase   map[string]*pack
	seenMod  time.Time // mtime of objects/pack at a settled scan
	listings int       // how many times objects/pack was listed
}

// newObjDir returns the objects folder at path with its packs opened.
func newObjDir(path string) (*objDir, error) {
	d := &objDir{path: path, byBase: make(map[string]*pack)}
	empty := []*pack{}
	d.packs.Store(&empty)
	if _, err := d.rescan(); err != nil {
		d.close()
		return nil, err
	}
	return d, nil
}

// packList returns the packs opened so far.
func (d *objDir) packList() []*pack { return *d.packs.Load() }

// rescan opens the packs that appeared in objects/pack since the last
// scan and reports whether there were any. It lists the folder only
// when its mtime changed or is too recent to be trusted.
func (d *objDir) rescan() (bool, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.byBase == nil {
		return false, ErrClosed
	}
	dir := filepath.Join(d.path, "pack")
	st, err := os.Stat(dir)
	if isNotExist(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !d.seenMod.IsZero() && st.ModTime().Equal(d.seenMod) {
		return false, nil
	}
	if time.Since(st.ModTime()) > settle {
		d.seenMod = st.ModTime()
	} else {
		d.seenMod = time.Time{}
	}
	return d.openNew(dir)
}

// openNew opens every pack of dir not yet open. Packs stay open when
// they disappear: readers may be using them, and their maps keep
// working until Close.
func (d *objDir) openNew(dir string) (bool, error) {
	d.listings++
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false, err
	}
	var added []*pack
	for _, e := range ents {
		base, ok := packBase(dir, e.Name())
		if !ok || d.byBase[base] != nil {
			continue
		}
		p, err := openPack(base)
		if isNotExist(err) {
			continue
		}
		if err != nil {
			return false, err
		}
		d.byBase[base] = p
		added = append(added, p)
	}
	if len(added) == 0 {
		return false, nil
	}
	list := append(added, d.packList()...)
	d.packs.Store(&list)
	return true, nil
}

// retire stops looking in the packs of bases, which were removed once their objects were
// copied into another pack, and drops their pages from resident memory. They stay mapped,
// for readers still in them, until close.
func (d *objDir) retire(bases []string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	gone := map[*pack]bool{}
	for _, b := range bases {
		if p := d.byBase[b]; p != nil {
			gone[p] = true
		}
	}
	if len(gone) == 0 {
		return
	}
	var list []*pack
	for _, p := range d.packList() {
		if !gone[p] {
			list = append(list, p)
		}
	}
	d.packs.Store(&list)
	for p := range gone {
		p.data.release()
		p.idxMap.release()
	}
}

// find returns the pack and offset of id among the open packs.
func (d *objDir) find(id *[20]byte) (*pack, int64, error) {
	for _, p := range d.packList() {
		off, ok, err := p.lookup(id)
		if err != nil || ok {
			return p, off, err
		}
	}
	return nil, 0, nil
}

// close unmaps every pack ever opened.
func (d *objDir) close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	var first error
	for _, p := range d.byBase {
		if err := p.close(); err != nil && first == nil {
			first = err
		}
	}
	d.byBase = nil
	empty := []*pack{}
	d.packs.Store(&empty)
	return first
}
