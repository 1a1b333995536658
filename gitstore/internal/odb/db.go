package odb

import (
	"fmt"
	"os"
	"sync/atomic"
)

// DB reads the objects of one objects folder and its alternates. Its
// methods are safe for concurrent use, except Close, which must come
// after every other call has returned.
type DB struct {
	dirs   []*objDir
	cache  *baseCache
	loose  looseCache
	closed atomic.Bool
}

// Open opens the objects folder objectsDir (a repository's .git/objects)
// and the folders its info/alternates names, and opens their packs.
func Open(objectsDir string) (*DB, error) {
	st, err := os.Stat(objectsDir)
	if err != nil {
		return nil, fmt.Errorf("opening objects: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("opening objects: %s is not a folder", objectsDir)
	}
	alts, err := alternates(objectsDir)
	if err != nil {
		return nil, fmt.Errorf("reading alternates of %s: %w", objectsDir, err)
	}
	db := &DB{cache: newBaseCache(DefaultCacheSize)}
	for _, path := range append([]string{objectsDir}, alts...) {
		d, err := newObjDir(path)
		if err != nil {
			db.Close()
			return nil, fmt.Errorf("opening packs of %s: %w", path, err)
		}
		db.dirs = append(db.dirs, d)
	}
	return db, nil
}

// Close unmaps every pack. The DB must not be used afterwards.
func (db *DB) Close() error {
	if db.closed.Swap(true) {
		return nil
	}
	var first error
	for _, d := range db.dirs {
		if err := d.close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Retire stops reading the packs of bases (paths without .pack or .idx), which were removed
// after their objects were copied into another pack, and releases their pages: a batch that
// joins its packs again and again then keeps only the last in memory.
func (db *DB) Retire(bases []string) {
	for _, d := range db.dirs {
		d.retire(bases)
	}
}

// Read returns the type and content of the object id, its deltas
// resolved. An object larger than limit bytes gives an error wrapping
// ErrTooLarge before its content is inflated; a negative limit means no
// limit. The caller owns the returned slice. A delta that builds more
// than MaxDeltaResult bytes, which git does not write, gives an error
// wrapping ErrCorrupt.
func (db *DB) Read(id [20]byte, limit int64) (Type, []byte, error) {
	if db.closed.Load() {
		return 0, nil, ErrClosed
	}
	p, off, err := db.findPacked(&id)
	if err != nil || p != nil {
		return db.readPacked(&id, p, off, limit, err)
	}
	if typ, data, ok, err := db.loose.get(&id, limit); ok {
		return typ, data, err
	}
	for _, d := range db.dirs {
		typ, _, data, err := readLoose(d.path, &id, limit, false)
		if err == nil {
			db.loose.put(&id, typ, data)
		}
		if !isNotExist(err) {
			return typ, data, err
		}
	}
	p, off, err = db.findAfterRescan(&id)
	if err != nil || p != nil {
		return db.readPacked(&id, p, off, limit, err)
	}
	return 0, nil, notFound(&id)
}

// Size returns the type and size of the object id, reading only entry
// and delta headers.
func (db *DB) Size(id [20]byte) (Type, int64, error) {
	if db.closed.Load() {
		return 0, 0, ErrClosed
	}
	p, off, err := db.findPacked(&id)
	if err != nil || p != nil {
		return db.sizePacked(p, off, err)
	}
	for _, d := range db.dirs {
		typ, size, _, err := readLoose(d.path, &id, -1, true)
		if !isNotExist(err) {
			return typ, size, err
		}
	}
	p, off, err = db.findAfterRescan(&id)
	if err != nil || p != nil {
		return db.sizePacked(p, off, err)
	}
	return 0, 0, notFound(&id)
}

// Has reports whether the object id is in a pack or loose file.
func (db *DB) Has(id [20]byte) bool {
	if db.HasSeen(id) {
		return true
	}
	p, _, err := db.findAfterRescan(&id)
	return p != nil && err == nil
}

// HasSeen is Has without looking for packs written since the last look: it reports whether
// the object id is in a pack already opened or in a loose file. A writer uses it to skip
// objects it need not write again; one that another process has just packed is then
// written twice, which git accepts, instead of the pack folder being listed again for every
// new object, as it is while the folder's last change is too recent to trust its time.
func (db *DB) HasSeen(id [20]byte) bool {
	if db.closed.Load() {
		return false
	}
	if p, _, err := db.findPacked(&id); p != nil && err == nil {
		return true
	}
	for _, d := range db.dirs {
		if hasLoose(d.path, &id) {
			return true
		}
	}
	return false
}

// Rescan opens the packs written since the last look, as a miss does: a writer that has just
// written a pack calls it, so that HasSeen finds the pack's objects.
func (db *DB) Rescan() error {
	if db.closed.Load() {
		return ErrClosed
	}
	_, err := db.rescanAll()
	return err
}

// rescanAll opens the packs written since the last look in every objects folder, and reports
// whether it opened any.
func (db *DB) rescanAll() (bool, error) {
	added := false
	for _, d := range db.dirs {
		ok, err := d.rescan()
		if err != nil {
			return added, fmt.Errorf("rescanning packs of %s: %w", d.path, err)
		}
		added = added || ok
	}
	return added, nil
}

// findPacked looks id up in the packs opened so far.
func (db *DB) findPacked(id *[20]byte) (*pack, int64, error) {
	for _, d := range db.dirs {
		if p, off, err := d.find(id); err != nil || p != nil {
			return p, off, err
		}
	}
	return nil, 0, nil
}

// findAfterRescan opens the packs that appeared since the last scan and
// looks id up again if there were any.
func (db *DB) findAfterRescan(id *[20]byte) (*pack, int64, error) {
	added, err := db.rescanAll()
	if err != nil || !added {
		return nil, 0, err
	}
	return db.findPacked(id)
}

// notFound returns the error for a missing object.
func notFound(id *[20]byte) error {
	return fmt.Errorf("object %s: %w", hexID(*id), ErrNotFound)
}
