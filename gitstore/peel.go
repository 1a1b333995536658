package gitstore

import (
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
)

// ErrNotCommit is returned by PeelCommit when an object, once its annotated tags are followed,
// is not a commit.
var ErrNotCommit = errors.New("not a commit")

// PeelCommit returns the commit that object h is, or that the chain of annotated tags starting
// at h points at. An object missing from the repository (and from a push's quarantine, while a
// pre-receive hook runs) is plumbing.ErrObjectNotFound; a tag of a tree or a blob is
// ErrNotCommit.
func (r *Objects) PeelCommit(h Hash) (Hash, error) {
	target, err := r.peel(h)
	if err != nil {
		return ZeroHash, err
	}
	t, err := r.objectType(target)
	if err != nil {
		return ZeroHash, err
	}
	if t != plumbing.CommitObject {
		return ZeroHash, fmt.Errorf("%s %s: %w; point the tag at a commit", t, target, ErrNotCommit)
	}
	return target, nil
}

// objectType returns the type of object h.
func (r *Objects) objectType(h Hash) (plumbing.ObjectType, error) {
	if t, _, ok, err := r.fastSize(plumbing.AnyObject, h); ok {
		return t, err
	}
	r.objMu.Lock()
	defer r.objMu.Unlock()
	obj, err := r.encodedObject(plumbing.AnyObject, h)
	if err != nil {
		return plumbing.InvalidObject, err
	}
	return obj.Type(), nil
}
