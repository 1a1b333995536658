package gitstore

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/go-git/go-billy/v5/helper/mount"
	"github.com/go-git/go-billy/v5/helper/polyfill"
	"github.com/go-git/go-billy/v5/memfs"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// quarantineEnv names the variable that git (2.11 and later) sets while
// a pre-receive hook runs: the folder inside the objects folder that holds
// the pushed objects until the hook accepts them. git also points
// GIT_OBJECT_DIRECTORY at it and GIT_ALTERNATE_OBJECT_DIRECTORIES at the
// objects folder; reading both folders is what those two say.
const quarantineEnv = "GIT_QUARANTINE_PATH"

// withQuarantine returns s, or s reading a push's quarantined objects too
// when getenv names a quarantine folder inside objDir.
func withQuarantine(s *filesystem.Storage, objDir string, getenv func(string) string) storage.Storer {
	dir := quarantineDir(getenv(quarantineEnv), objDir)
	if dir == "" {
		return s
	}
	fsys := polyfill.New(mount.New(memfs.New(), "objects", osfs.New(dir)))
	incoming := filesystem.NewObjectStorageWithOptions(dotgit.New(fsys), cache.NewObjectLRUDefault(),
		filesystem.Options{MaxOpenDescriptors: 16, LargeObjectThreshold: largeObject})
	return &quarantineStorage{Storage: s, incoming: incoming}
}

// quarantineDir returns the real path of folder q when it lies strictly
// inside objDir, and "" otherwise. A quarantine elsewhere belongs to
// another repository, or to nobody, and is never read.
func quarantineDir(q, objDir string) string {
	if q == "" {
		return ""
	}
	abs, err := filepath.Abs(q)
	if err != nil {
		return ""
	}
	real, err1 := filepath.EvalSymlinks(abs)
	base, err2 := filepath.EvalSymlinks(objDir)
	if err1 != nil || err2 != nil {
		return ""
	}
	rel, err := filepath.Rel(base, real)
	if err != nil || rel == "." || !filepath.IsLocal(rel) {
		return ""
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return ""
	}
	return real
}

// quarantineStorage is a repository's storage that looks in a push's
// quarantine folder for the objects it lacks. Everything else, writes
// included, is the repository's own storage.
type quarantineStorage struct {
	*filesystem.Storage
	incoming *filesystem.ObjectStorage
}

func missing(err error) bool { return errors.Is(err, plumbing.ErrObjectNotFound) }

// EncodedObject returns object h from the repository or the quarantine.
func (s *quarantineStorage) EncodedObject(t plumbing.ObjectType, h Hash) (plumbing.EncodedObject, error) {
	obj, err := s.Storage.EncodedObject(t, h)
	if missing(err) {
		return s.incoming.EncodedObject(t, h)
	}
	return obj, err
}

// DeltaObject is EncodedObject without resolving deltas in packs.
func (s *quarantineStorage) DeltaObject(t plumbing.ObjectType, h Hash) (plumbing.EncodedObject, error) {
	obj, err := s.Storage.DeltaObject(t, h)
	if missing(err) {
		return s.incoming.DeltaObject(t, h)
	}
	return obj, err
}

// HasEncodedObject reports, as a nil error, that object h is stored in
// the repository or the quarantine.
func (s *quarantineStorage) HasEncodedObject(h Hash) error {
	err := s.Storage.HasEncodedObject(h)
	if missing(err) {
		return s.incoming.HasEncodedObject(h)
	}
	return err
}

// EncodedObjectSize returns the size of object h.
func (s *quarantineStorage) EncodedObjectSize(h Hash) (int64, error) {
	n, err := s.Storage.EncodedObjectSize(h)
	if missing(err) {
		return s.incoming.EncodedObjectSize(h)
	}
	return n, err
}

// HashesWithPrefix returns the ids that start with prefix in both places.
func (s *quarantineStorage) HashesWithPrefix(prefix []byte) ([]Hash, error) {
	own, err := s.Storage.HashesWithPrefix(prefix)
	if err != nil {
		return nil, err
	}
	more, err := s.incoming.HashesWithPrefix(prefix)
	return append(own, more...), err
}

// IterEncodedObjects iterates over the objects of type t in both places.
func (s *quarantineStorage) IterEncodedObjects(t plumbing.ObjectType) (storer.EncodedObjectIter, error) {
	own, err := s.Storage.IterEncodedObjects(t)
	if err != nil {
		return nil, err
	}
	more, err := s.incoming.IterEncodedObjects(t)
	if err != nil {
		own.Close()
		return nil, err
	}
	return storer.NewMultiEncodedObjectIter([]storer.EncodedObjectIter{own, more}), nil
}

// Reindex makes both places load their list of packs again.
func (s *quarantineStorage) Reindex() {
	s.Storage.Reindex()
	s.incoming.Reindex()
}

// Close releases the pack files both places keep open.
func (s *quarantineStorage) Close() error {
	return errors.Join(s.Storage.Close(), s.incoming.Close())
}
