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
