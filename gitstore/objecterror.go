package gitstore

import "errors"

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
