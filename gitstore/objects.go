package gitstore

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// ReadBlob returns the content of blob h. It fails without reading the
// content when the blob is larger than limit bytes.
func (r *Objects) ReadBlob(h Hash, limit int64) ([]byte, error) {
	return r.readObject(plumbing.BlobObject, h, limit)
}

// readObject returns the content of an object of type t that is at most
// limit bytes long.
func (r *Objects) readObject(t plumbing.ObjectType, h Hash, limit int64) ([]byte, error) {
	if _, data, ok, err := r.fastRead(t, h, limit); ok {
		return data, err
	}
	r.objMu.Lock()
	defer r.objMu.Unlock()
	obj, err := r.encodedObject(t, h)
	if err != nil {
		return nil, err
	}
	if obj.Size() > limit {
		return nil, fmt.Errorf("%s %s is %d bytes, larger than the limit of %d bytes", t, h, obj.Size(), limit)
	}
	rd, err := obj.Reader()
	if err != nil {
		return nil, objectError(h, fmt.Errorf("reading %s %s: %w", t, h, err))
	}
	defer rd.Close()
	b, err := readSized(rd, obj.Size(), limit)
	if err != nil {
		return nil, objectError(h, fmt.Errorf("reading %s %s: %w", t, h, err))
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("reading %s %s: content is larger than the limit of %d bytes", t, h, limit)
	}
	return b, nil
}

// readSized reads r, expected to hold size bytes, into a slice made for them at once, so that a
// large object or file costs its size in memory rather than the doublings of io.ReadAll. It
// reads at most limit+1 bytes, so a caller sees content over the limit as len > limit.
func readSized(r io.Reader, size, limit int64) ([]byte, error) {
	// One byte more than expected lets the read that meets the end find room.
	b := make([]byte, 0, min(max(size, 0), limit)+1)
	lr := io.LimitReader(r, limit+1)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := lr.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// reindexer is an object storage on disk, which loads its list of packs
// once and must be told when another process has changed it.
type reindexer interface{ Reindex() }

// encodedObject looks an object up; the caller holds objMu. When another
// process has repacked the repository since the pack index was loaded,
// the object is missing from it, so a miss reloads the index once.
func (r *Objects) encodedObject(t plumbing.ObjectType, h Hash) (plumbing.EncodedObject, error) {
	obj, err := r.storer.EncodedObject(t, h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		if fsStorer, ok := r.storer.(reindexer); ok {
			fsStorer.Reindex()
			obj, err = r.storer.EncodedObject(t, h)
		}
	}
	if err != nil {
		return nil, objectError(h, fmt.Errorf("%s %s: %w", t, h, err))
	}
	return obj, nil
}

// objectSize returns the size of an object. Packs are searched first and
// objects above the large-object threshold are not read, so this costs a
// small object one decoding, which go-git keeps in its cache for the read
// that usually follows. (go-git's EncodedObjectSize looks for a loose file
// first, a failed open for every packed object, and then decodes the
// delta anyway.)
func (r *Objects) objectSize(t plumbing.ObjectType, h Hash) (int64, error) {
	if _, size, ok, err := r.fastSize(t, h); ok {
		return size, err
	}
	r.objMu.Lock()
	defer r.objMu.Unlock()
	obj, err := r.encodedObject(t, h)
	if err != nil {
		return 0, err
	}
	return obj.Size(), nil
}

// Has reports whether object h is stored, without reading it: an index lookup for a
// packed object, a stat for a loose one. An object id names its type with its content, so a
// stored h is the object it names.
func (r *Objects) Has(h Hash) bool { return r.hasObject(h) }

// hasObject reports whether object h is stored.
func (r *Objects) hasObject(h Hash) bool {
	if r.objects != nil {
		if _, _, ok := r.heldObj.info(h); ok {
			return true
		}
		return r.objects.Has(h) // it looks for new packs itself on a miss
	}
	r.objMu.Lock()
	defer r.objMu.Unlock()
	if r.storer.HasEncodedObject(h) == nil {
		return true
	}
	if fsStorer, ok := r.storer.(reindexer); ok {
		fsStorer.Reindex()
		return r.storer.HasEncodedObject(h) == nil
	}
	return false
}

// FileAt reads the regular file at path file of root tree tree, at most limit bytes; ok is
// false when there is none. label names the version read in errors.
func (r *Objects) FileAt(tree Hash, file string, limit int64, label string) ([]byte, bool, error) {
	e, ok, err := r.EntryAt(tree, file)
	switch {
	case err != nil:
		return nil, false, fmt.Errorf("%s:%s: %w", label, file, err)
	case !ok:
		return nil, false, nil
	case e.Mode != filemode.Regular && e.Mode != filemode.Executable:
		return nil, false, fmt.Errorf("%s:%s: not a regular file; replace it with one", label, file)
	}
	data, err := r.ReadBlob(e.Hash, limit)
	if err != nil {
		return nil, false, fmt.Errorf("%s:%s: %w", label, file, err)
	}
	return data, true, nil
}

// objectsDir returns the path of the repository's objects folder.
func (r *Objects) objectsDir() string { return filepath.Join(r.commonDir, "objects") }
