package gitstore

import (
	"io"
	"sync"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage"
	"github.com/go-git/go-git/v5/storage/memory"

	"github.com/skillgit/skillgit/gitstore/internal/odb"
)

// Repo is a git repository used as a database. Create one with Init, Open
// or OpenMemory.
type Repo struct {
	repo   *git.Repository
	storer storage.Storer

	// objMu serializes every use of storer: go-git's object storage
	// fills its pack index and descriptor caches lazily without locking.
	objMu sync.Mutex
	// refMu makes compare-and-swap atomic for repositories in memory;
	// on disk, lock files do that job across processes.
	refMu sync.Mutex
	// held are the ref moves waiting in memory while the refs are held (see Holds.Hold).
	held refHold
	// heldObj are the objects written while the refs are held, waiting to be packed.
	heldObj heldObjects

	trees    *treeCache
	rawTrees rawTreeCache
	headers  headerCache
	commits  commitCache
	reach    reachCache
	growth   growth
	packed   packedRefsCache
	loose    looseCount
	// objects reads objects without objMu, faster than storer; nil for a repository in
	// memory, or one reading a push's quarantine, where storer serves every read.
	objects *odb.DB
	graphs  graphState

	mem       bool
	gitDir    string
	commonDir string
	worktree  string
}

// OpenMemory returns an empty repository held in memory, with HEAD
// pointing at the unborn branch refs/heads/main. It has the same API as a
// repository on disk and no working tree.
func OpenMemory() *Repo {
	s := memory.NewStorage()
	opts := git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")}
	repo, err := git.InitWithOptions(s, nil, opts)
	if err != nil {
		// Initializing a fresh memory storage touches no input and
		// cannot fail unless go-git itself is broken.
		panic("gitstore: initializing memory storage: " + err.Error())
	}
	return newRepo(repo, s, true)
}

func newRepo(repo *git.Repository, s storage.Storer, mem bool) *Repo {
	return &Repo{repo: repo, storer: s, mem: mem, trees: newTreeCache(treeCacheEntries)}
}

// Bare reports whether the repository has no working tree. A repository
// in memory is bare.
func (r *Repo) Bare() bool { return r.worktree == "" }

// WorktreeDir returns the root of the working tree, or "" when the
// repository is bare or in memory.
func (r *Repo) WorktreeDir() string { return r.worktree }

// GitDir returns the repository's git directory (the .git folder, the
// bare repository, or a linked worktree's private folder), or "" in memory.
func (r *Repo) GitDir() string { return r.gitDir }

// CommonDir returns the folder that holds objects and shared refs. It
// differs from GitDir in a linked worktree and is "" in memory.
func (r *Repo) CommonDir() string { return r.commonDir }

// Git returns the underlying go-git repository. Access through it bypasses
// the locking that makes a Repo safe for concurrent use.
func (r *Repo) Git() *git.Repository { return r.repo }

// Close releases the pack files the repository keeps open. The Repo must
// not be used afterwards.
func (r *Repo) Close() error {
	r.objMu.Lock()
	defer r.objMu.Unlock()
	if r.objects != nil {
		r.objects.Close()
	}
	r.History().closeGraph()
	if c, ok := r.storer.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
