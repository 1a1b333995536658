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

// Reader is what a Book reads of a repository: its objects and history (Store), the
// first-parent line and changed-path filter, files at a tree, its refs, and the folder where
// the ledger keeps its caches. ReaderOf makes one of a *gitstore.Repo.
type Reader interface {
	Store
	// WalkFirstParent calls fn for each commit of the first-parent line from commit from,
	// newest first, until fn returns an error.
	WalkFirstParent(from gitstore.Hash, fn func(h gitstore.Hash, c *object.Commit) error) error
	// MayHaveChanged reports whether commit h may have changed path; false only when git's
	// changed-path filter says it did not.
	MayHaveChanged(h gitstore.Hash, path string) bool
	// FileAt reads file of root tree tree, at most limit bytes; ok is false when there is
	// none. label names the tree in errors.
	FileAt(tree gitstore.Hash, file string, limit int64, label string) (data []byte, ok bool, err error)
	// Ref returns the commit ref name points at.
	Ref(name string) (gitstore.Hash, error)
	// Refs lists the refs whose names start with prefix.
	Refs(prefix string) ([]gitstore.Ref, error)
	// CommonDir is the repository's git folder.
	CommonDir() string
}
