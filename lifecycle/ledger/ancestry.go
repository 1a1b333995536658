package ledger

import "github.com/skillgit/skillgit/gitstore"

// hasCommit reports whether commit h is in the repository.
func (b *Book) hasCommit(h gitstore.Hash) bool {
	if h.IsZero() {
		return false
	}
	_, err := b.Git.Commit(h)
	return err == nil
}

// Descends reports whether commit d is a, or descends from it; false when either is missing.
func (b *Book) Descends(d, a gitstore.Hash) bool {
	if !b.hasCommit(a) || !b.hasCommit(d) {
		return false
	}
	ok, err := b.Git.IsAncestor(a, d)
	return err == nil && ok
}
