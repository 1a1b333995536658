// Package gitstore uses a git repository as a database: it writes blobs,
// trees and commits without a working tree, serves a tree as an fs.FS,
// rebuilds only the path from a changed folder up to the root, and moves
// refs by compare-and-swap with git's own lock-file protocol, so that the
// git command line and several processes can share one repository.
//
// A Repo works on a repository on disk (bare or not, including linked
// worktrees) or entirely in memory. It is safe for concurrent use; object
// reads and writes are serialized, because the underlying object storage
// keeps unguarded caches.
package gitstore

import (
	"errors"

	"github.com/go-git/go-git/v5/plumbing"
)

// Hash is the id of a git object.
type Hash = plumbing.Hash

// ZeroHash is the all-zero id. As a tree it means the empty tree; as a ref
// value it means that the ref does not exist.
var ZeroHash Hash

// Errors that callers branch on. Every error returned by this package that
// matches one of them is wrapped with the path, ref or files concerned.
var (
	// ErrNotRepository means that no git repository was found at a path.
	ErrNotRepository = errors.New("not a git repository")
	// ErrRefNotFound means that a ref or revision does not exist.
	ErrRefNotFound = errors.New("ref not found")
	// ErrRefChanged means that a compare-and-swap lost: the ref no longer
	// had the value the caller expected.
	ErrRefChanged = errors.New("ref changed since it was read")
	// ErrUnsupported means that a repository uses a git feature this
	// package cannot read or write safely.
	ErrUnsupported = errors.New("unsupported repository feature")
	// ErrDirty means that the working tree or the index holds changes that
	// an update would overwrite.
	ErrDirty = errors.New("local changes would be overwritten")
	// ErrLocked means that another process held a lock file for longer
	// than this package waits.
	ErrLocked = errors.New("locked by another process")
	// ErrLandedInPart means that writing held ref moves failed after the first of them was
	// written: some moved, the others did not.
	ErrLandedInPart = errors.New("some of the held ref moves were written and some were not")
	// ErrStop, returned by a walk callback, ends the walk without error.
	ErrStop = errors.New("stop")
)

// Limits on hostile input.
const (
	// MaxFileSize is the largest file WriteDir stores and the largest blob
	// a TreeFS reads.
	MaxFileSize = 64 << 20
	// MaxDirEntries is the largest number of entries WriteDir stores in
	// one snapshot.
	MaxDirEntries = 200_000
	// maxTreeSize bounds the size of a tree object that is parsed.
	maxTreeSize = 64 << 20
	// maxDepth bounds folder nesting in WriteDir and path lengths in
	// tree surgery.
	maxDepth = 64
	// maxLinkTarget bounds the length of a symbolic link's target.
	maxLinkTarget = 4096
)
