package gitstore

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// memReadRef reads a ref of a repository in memory without following it.
func (r *Refs) memReadRef(name string) (refValue, bool, error) {
	r.refMu.Lock()
	defer r.refMu.Unlock()
	ref, err := r.storer.Reference(plumbing.ReferenceName(name))
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return refValue{}, false, nil
	}
	if err != nil {
		return refValue{}, false, fmt.Errorf("%s: %w", name, err)
	}
	if ref.Type() == plumbing.SymbolicReference {
		return refValue{target: ref.Target().String()}, true, nil
	}
	return refValue{hash: ref.Hash()}, true, nil
}

// memUpdateRef is Update for a repository in memory: a mutex makes
// the compare and the swap one step.
func (r *Refs) memUpdateRef(name string, newH, oldH Hash, fn func() error) error {
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
func (r *Refs) memRefConflict(name string) error {
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

// memRefs lists the refs of a repository in memory under prefix.
func (r *Refs) memRefs(prefix string) ([]Ref, error) {
	r.refMu.Lock()
	var names []string
	iter, err := r.storer.IterReferences()
	if err == nil {
		err = iter.ForEach(func(ref *plumbing.Reference) error {
			if n := ref.Name().String(); strings.HasPrefix(n, "refs/") && strings.HasPrefix(n, prefix) {
				names = append(names, n)
			}
			return nil
		})
		iter.Close()
	}
	r.refMu.Unlock()
	if err != nil {
		return nil, err
	}
	var refs []Ref
	for _, n := range names {
		if h, err := r.resolveRef(n, 0); err == nil {
			refs = append(refs, Ref{Name: n, Hash: h})
		}
	}
	return refs, nil
}
