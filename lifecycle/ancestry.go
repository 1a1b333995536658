package lifecycle

import "github.com/skillgit/skillgit/gitstore"

// hasCommit reports whether commit h is in the repository.
func (r *Repo) hasCommit(h gitstore.Hash) bool {
	if h.IsZero() {
		return false
	}
	_, err := r.Git.Commit(h)
	return err == nil
}

// Descends reports whether commit b is a, or descends from it; false when either is missing.
func (r *Repo) Descends(b, a gitstore.Hash) bool {
	if !r.hasCommit(a) || !r.hasCommit(b) {
		return false
	}
	ok, err := r.Git.IsAncestor(a, b)
	return err == nil && ok
}
