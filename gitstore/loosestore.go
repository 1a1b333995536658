package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/format/objfile"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// packCacheSize bounds the loose object contents kept in memory while a
// pack is written. The encoder compares each object with its neighbours
// by size, so a cache a few times its window keeps most reads in memory
// without holding every object: ten trees of a folder of 10,000 skills are
// 2.4 MB, and a pack update of 2,500 real skills, whose assets are larger,
// held 40 MB here at 64 MiB.
const packCacheSize = 16 * cache.MiByte

var errReadOnly = errors.New("the loose object reader is read-only")

// looseStore reads loose objects straight from their files for the pack
// encoder, which reads from several goroutines: it shares no state with
// the Repo's object storage and needs no lock. Objects are read lazily and
// checked against their ids.
type looseStore struct {
	dir   string
	cache *cache.ObjectLRU
}

var _ storer.EncodedObjectStorer = (*looseStore)(nil)

func newLooseStore(objDir string) *looseStore {
	return &looseStore{dir: objDir, cache: cache.NewObjectLRU(packCacheSize)}
}

// EncodedObject returns object h without reading its content.
func (s *looseStore) EncodedObject(t plumbing.ObjectType, h Hash) (plumbing.EncodedObject, error) {
	f, zr, typ, size, err := s.open(h)
	if err != nil {
		return nil, err
	}
	zr.Close()
	f.Close()
	if t != plumbing.AnyObject && t != typ {
		return nil, plumbing.ErrObjectNotFound
	}
	return &looseObject{s: s, h: h, t: typ, size: size}, nil
}

// open opens the loose copy of h and reads its header.
func (s *looseStore) open(h Hash) (*os.File, *objfile.Reader, plumbing.ObjectType, int64, error) {
	f, err := os.Open(loosePath(s.dir, h))
	if err != nil {
		return nil, nil, 0, 0, fmt.Errorf("loose object %s: %w", h, err)
	}
	zr, err := objfile.NewReader(f)
	if err != nil {
		f.Close()
		return nil, nil, 0, 0, corruptLoose(h, err)
	}
	t, size, err := zr.Header()
	if err != nil {
		zr.Close()
		f.Close()
		return nil, nil, 0, 0, corruptLoose(h, err)
	}
	return f, zr, t, size, nil
}

func corruptLoose(h Hash, err error) error {
	return fmt.Errorf("loose object %s is corrupt (%w); run `git fsck`", h, err)
}

// content returns the content of object h, checked against h.
func (s *looseStore) content(h Hash) ([]byte, error) {
	if o, ok := s.cache.Get(h); ok {
		return o.(*looseObject).data, nil
	}
	f, zr, t, size, err := s.open(h)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	defer zr.Close()
	data, err := io.ReadAll(io.LimitReader(zr, size+1))
	switch {
	case err != nil:
		return nil, corruptLoose(h, err)
	case int64(len(data)) != size:
		return nil, corruptLoose(h, fmt.Errorf("%d bytes instead of %d", len(data), size))
	case zr.Hash() != h:
		return nil, corruptLoose(h, fmt.Errorf("its content hashes to %s", zr.Hash()))
	}
	s.cache.Put(&looseObject{h: h, t: t, size: size, data: data})
	return data, nil
}

func (s *looseStore) NewEncodedObject() plumbing.EncodedObject { return &plumbing.MemoryObject{} }

func (s *looseStore) SetEncodedObject(plumbing.EncodedObject) (Hash, error) {
	return ZeroHash, errReadOnly
}

func (s *looseStore) IterEncodedObjects(plumbing.ObjectType) (storer.EncodedObjectIter, error) {
	return nil, errReadOnly
}

func (s *looseStore) HasEncodedObject(h Hash) error {
	_, err := s.EncodedObject(plumbing.AnyObject, h)
	return err
}

func (s *looseStore) EncodedObjectSize(h Hash) (int64, error) {
	o, err := s.EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return 0, err
	}
	return o.Size(), nil
}

func (s *looseStore) AddAlternate(string) error { return errReadOnly }

// looseObject is a loose object whose content is read when asked for.
// Copies kept in the store's cache carry the content in data.
type looseObject struct {
	s    *looseStore
	h    Hash
	t    plumbing.ObjectType
	size int64
	data []byte
}

func (o *looseObject) Hash() Hash                    { return o.h }
func (o *looseObject) Type() plumbing.ObjectType     { return o.t }
func (o *looseObject) SetType(t plumbing.ObjectType) { o.t = t }
func (o *looseObject) Size() int64                   { return o.size }
func (o *looseObject) SetSize(n int64)               { o.size = n }

func (o *looseObject) Writer() (io.WriteCloser, error) { return nil, errReadOnly }

func (o *looseObject) Reader() (io.ReadCloser, error) {
	data, err := o.s.content(o.h)
	if err != nil {
		return nil, err
	}
	return io.NopCloser(bytes.NewReader(data)), nil
}
