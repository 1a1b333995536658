package ledger

import (
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
)

// Store is what the ledger reads of a repository. StoreOf makes one of a *gitstore.Repo.
type Store interface {
	// Commit reads commit h.
	Commit(h gitstore.Hash) (*object.Commit, error)
	// ReadRawTree reads tree h undecoded; ZeroHash is the empty tree.
	ReadRawTree(h gitstore.Hash) (gitstore.RawTree, error)
	// EntryAt returns the entry at slash path p of root tree root.
	EntryAt(root gitstore.Hash, p string) (gitstore.TreeEntry, bool, error)
	// ReadBlob reads blob h, failing when it is larger than limit bytes.
	ReadBlob(h gitstore.Hash, limit int64) ([]byte, error)
	// IsAncestor reports whether commit a is reachable from commit b, or is b.
	IsAncestor(a, b gitstore.Hash) (bool, error)
}
