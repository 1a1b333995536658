package gitstore

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// memUpdateRef is Update for a repository in memory: a mutex makes
// the compare and the swap one step.
func (r *Updates) memUpdateRef(name string, newH, oldH Hash, fn func() error) error {
	r.refMu.Lock()
	defer r.refMu.Unlock()
	refName := plumbing.ReferenceName(name)
	var cur Hash
	ref, err := r.storer.Reference(refName)
	switch {
	case err == nil && ref.Type() == plumbing.SymbolicReference:
		return fmt.Errorf("%s: is a symbolic ref to %s; update %s instead", name, ref.Target(), ref.Target())
	case err == nil:
		cur = ref.Hash()
	case !errors.Is(err, plumbing.ErrReferenceNotFound):
		return fmt.Errorf("%s: %w", name, err)
	}
	if cur != oldH {
		return refChanged(name, oldH, cur)
	}
	if err := fn(); err != nil {
		return err
	}
	if newH.IsZero() {
		return r.storer.RemoveReference(refName)
	}
	if oldH.IsZero() {
		if err := r.memRefConflict(name); err != nil {
			return err
		}
	}
	return r.storer.SetReference(plumbing.NewHashReference(refName, newH))
}

// memRefConflict is checkRefConflict for a repository in memory; the
// caller holds refMu.
func (r *Updates) memRefConflict(name string) error {
	iter, err := r.storer.IterReferences()
	if err != nil {
		return err
	}
	defer iter.Close()
	return iter.ForEach(func(ref *plumbing.Reference) error {
		other := ref.Name().String()
		if strings.HasPrefix(other, name+"/") || strings.HasPrefix(name, other+"/") {
			return refConflict(name, other)
		}
		return nil
	})
}
