package gitstore

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/gitstore/internal/odb"
)

// openObjects opens the fast object reader of a repository's objects folder. It returns nil
// when the folder cannot be read that way; go-git's storage then serves every read.
func openObjects(objectsDir string) *odb.DB {
	db, err := odb.Open(objectsDir)
	if err != nil {
		return nil
	}
	return db
}

// fastRead reads object h of type t (AnyObject for any) of at most limit bytes through the
// fast reader, without objMu: its readers share only immutable pack maps and their own
// cache. ok is false when the repository has no fast reader.
func (r *Objects) fastRead(t plumbing.ObjectType, h Hash, limit int64) (plumbing.ObjectType, []byte, bool, error) {
	if r.objects == nil {
		return 0, nil, false, nil
	}
	if got, size, ok := r.heldObj.info(h); ok {
		err := checkType(t, got, h)
		if err == nil && size > limit {
			err = fastError(t, h, limit, odb.ErrTooLarge)
		}
		if err != nil {
			return 0, nil, true, err
		}
		if _, data, ok := r.heldObj.read(h); ok {
			return got, bytes.Clone(data), true, nil
		}
	}
	typ, data, err := r.objects.Read(h, limit)
	if err != nil {
		return 0, nil, true, fastError(t, h, limit, err)
	}
	got := plumbing.ObjectType(typ)
	if err := checkType(t, got, h); err != nil {
		return 0, nil, true, err
	}
	return got, data, true, nil
}

// checkType fails, as go-git's storage does, when object h read for type t is of type got.
func checkType(t, got plumbing.ObjectType, h Hash) error {
	if t != plumbing.AnyObject && got != t {
		return objectError(h, fmt.Errorf("%s %s: %w (it is a %s)", t, h, plumbing.ErrObjectNotFound, got))
	}
	return nil
}

// fastSize returns the type and size of object h through the fast reader; ok is false when
// the repository has none.
func (r *Objects) fastSize(t plumbing.ObjectType, h Hash) (plumbing.ObjectType, int64, bool, error) {
	if r.objects == nil {
		return 0, 0, false, nil
	}
	typ, size, err := odb.Type(0), int64(0), error(nil)
	if ht, hsize, ok := r.heldObj.info(h); ok {
		typ, size = odb.Type(ht), hsize
	} else {
		typ, size, err = r.objects.Size(h)
	}
	if err != nil {
		return 0, 0, true, fastError(t, h, -1, err)
	}
	got := plumbing.ObjectType(typ)
	if err := checkType(t, got, h); err != nil {
		return 0, 0, true, err
	}
	return got, size, true, nil
}

// fastError words an error of the fast reader as the rest of gitstore does: a missing object
// wraps plumbing.ErrObjectNotFound, and a missing or damaged one is an *ObjectError.
func fastError(t plumbing.ObjectType, h Hash, limit int64, err error) error {
	switch {
	case errors.Is(err, odb.ErrTooLarge):
		return fmt.Errorf("%s %s is larger than the limit of %d bytes", t, h, limit)
	case errors.Is(err, odb.ErrNotFound):
		return objectError(h, fmt.Errorf("%s %s: %w", t, h, plumbing.ErrObjectNotFound))
	}
	return objectError(h, fmt.Errorf("reading %s %s: %w", t, h, err))
}

// memoryObject wraps content read by the fast reader for go-git's decoders.
func memoryObject(t plumbing.ObjectType, data []byte) *plumbing.MemoryObject {
	obj := &plumbing.MemoryObject{}
	obj.SetType(t)
	obj.Write(data)
	return obj
}
