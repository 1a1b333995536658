package gitstore

import (
	"slices"
)

// MergeBase returns the best common ancestor of commits a and b, as
// `git merge-base a b` does: a commit reachable from both that is not an
// ancestor of another such commit. When there are several (after
// criss-cross merges), it returns the one with the newest committer date,
// which may differ from the one git prints. It returns ZeroHash and no
// error when the histories share no commit, or when a or b is ZeroHash.
//
// The walk goes back from both commits at once, newest committer date
// first, and stops as soon as every commit left to visit is known to be
// an ancestor of a common ancestor already found, so its cost grows with
// the commits since the fork, not with the length of the history. In a
// shallow clone, history ends at the shallow boundary. When git's
// commit-graph holds both commits, the graph answers instead, in
// generation order, without reading commit objects.
func (r *History) MergeBase(a, b Hash) (Hash, error) {
	if a.IsZero() || b.IsZero() {
		return ZeroHash, nil
	}
	if base, ok := r.graphMergeBase(a, b); ok {
		return base, nil
	}
	w, err := r.newAncestryWalk()
	if err != nil {
		return ZeroHash, err
	}
	if err := w.paint(a, b, ZeroHash); err != nil {
		return ZeroHash, err
	}
	return r.bestBase(w.candidates())
}

// IsAncestor reports whether commit a is reachable from commit b; a commit
// is its own ancestor. ZeroHash is no commit and is no ancestor.
func (r *History) IsAncestor(a, b Hash) (bool, error) {
	if a.IsZero() || b.IsZero() {
		return false, nil
	}
	if in, ok := r.graphIsAncestor(a, b); ok {
		return in, nil
	}
	w, err := r.newAncestryWalk()
	if err != nil {
		return false, err
	}
	if err := w.paint(a, b, a); err != nil {
		return false, err
	}
	return w.nodes[a].flags&fromB != 0, nil
}

// bestBase returns the newest of the candidates that is not an ancestor
// of another one. The walk finds such redundant candidates only when
// committer dates go backwards along the history.
func (r *History) bestBase(candidates []Hash) (Hash, error) {
	for i, c := range candidates {
		redundant, err := r.ancestorOfAny(c, slices.Delete(slices.Clone(candidates), i, i+1))
		if err != nil || !redundant {
			return c, err
		}
	}
	return ZeroHash, nil
}

// ancestorOfAny reports whether c is an ancestor of one of others.
func (r *History) ancestorOfAny(c Hash, others []Hash) (bool, error) {
	for _, o := range others {
		if ok, err := r.IsAncestor(c, o); err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}
