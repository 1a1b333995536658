package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// ObjectError is an object that could not be read: it is missing from the
// repository or its stored form is damaged. When a tree or a commit names
// the object, the repository is broken, and `git fsck` finds the damage.
type ObjectError struct {
	// ID is the object that could not be read.
	ID Hash
	// Err says why, with the object's type and id.
	Err error
}

// Error returns the message of Err, which already names the object.
func (e *ObjectError) Error() string { return e.Err.Error() }

// Unwrap returns Err, so that errors.Is still finds
// plumbing.ErrObjectNotFound in it.
func (e *ObjectError) Unwrap() error { return e.Err }

// ObjectID returns the id of the object in hex. Packages that only know an
// fs.FS find unreadable objects by this method, without importing gitstore.
func (e *ObjectError) ObjectID() string { return e.ID.String() }

// objectError wraps err, from reading object h, as an *ObjectError unless
// it already is one.
func objectError(h Hash, err error) error {
	if err == nil {
		return nil
	}
	var oe *ObjectError
	if errors.As(err, &oe) {
		return err
	}
	return &ObjectError{ID: h, Err: err}
}

// fsckHint is what to do about an object that cannot be read.
const fsckHint = "the repository is damaged: run `git fsck` to find the damage and restore the object (such as by fetching from another clone)"

// IsObjectError reports whether err is, or wraps, an *ObjectError.
func IsObjectError(err error) bool {
	var oe *ObjectError
	return errors.As(err, &oe)
}

// WithFsckHint adds to an error about an object that cannot be read what to do about it,
// unless it says so already; any other error is returned as it is.
func WithFsckHint(err error) error {
	if !IsObjectError(err) || strings.Contains(err.Error(), "git fsck") {
		return err
	}
	return fmt.Errorf("%w; %s", err, fsckHint)
}

// FirstObjectError reads every file below dir of fsys, a git tree, and returns the first error
// that is a git object which could not be read; other errors, such as a file over the size
// limit, are for the caller to report.
func FirstObjectError(fsys fs.FS, dir string) error {
	var found error
	fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
		case d.Type()&fs.ModeSymlink != 0:
			_, err = fs.ReadLink(fsys, p)
		case d.Type().IsRegular():
			_, err = fs.ReadFile(fsys, p)
		}
		if IsObjectError(err) {
			found = err
			return fs.SkipAll
		}
		return nil
	})
	return found
}

// FirstMissingObject is FirstObjectError that only looks each file's object up, without reading
// it, when fsys is a git tree of this package: it finds what a partial or damaged clone lacks
// at the cost of reading the trees alone. Damage inside a stored object is left to whoever
// reads its bytes. For any other fsys it is FirstObjectError.
func FirstMissingObject(fsys fs.FS, dir string) error {
	t, ok := fsys.(*treeFS)
	if !ok {
		return FirstObjectError(fsys, dir)
	}
	var found error
	fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			err = t.missing(d)
		}
		if IsObjectError(err) {
			found = err
			return fs.SkipAll
		}
		return nil
	})
	return found
}

// missing returns an *ObjectError when the object of the file d names is not stored.
func (t *treeFS) missing(d fs.DirEntry) error {
	info, err := d.Info()
	if err != nil {
		return err
	}
	e, ok := info.Sys().(TreeEntry)
	if !ok || e.Mode == filemode.Submodule || t.r.Has(e.Hash) {
		return nil
	}
	return objectError(e.Hash, fmt.Errorf("blob %s: %w", e.Hash, plumbing.ErrObjectNotFound))
}
