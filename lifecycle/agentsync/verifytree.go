package agentsync

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
)

// maxLockedTreeFiles bounds how many files of a locked tree are listed.
const maxLockedTreeFiles = 100_000

// lockedTrees reads locked trees from a copy of the skill repository already on this
// machine: the folder the lock names, or the cached clone of its URL. Nothing is fetched;
// without a copy, no tree is found.
type lockedTrees struct {
	repo *gitstore.Repo
	// clone is the held mutex of the cached clone read; nil for a local copy.
	clone *cloneMutex
}

// openLockedTrees opens the copy of lock's skill repository on this machine, if any; a
// cached clone is read holding its mutex, shared, so that no sync fetches into it meanwhile.
func openLockedTrees(lock *Lock, project string) *lockedTrees {
	dir := lock.Repository
	var held *cloneMutex
	if IsGitURL(dir) {
		root, err := cacheRoot()
		if err != nil {
			return &lockedTrees{}
		}
		dir = CacheDir(root, dir)
		if _, err := os.Lstat(dir); err != nil {
			return &lockedTrees{}
		}
		if held, err = takeCloneMutex(dir, false); err != nil {
			return &lockedTrees{}
		}
	} else if !filepath.IsAbs(dir) {
		dir = filepath.Join(project, filepath.FromSlash(dir))
	}
	r, err := gitstore.Open(dir)
	if err != nil {
		held.release()
		return &lockedTrees{}
	}
	return &lockedTrees{repo: r, clone: held}
}

func (s *lockedTrees) close() {
	if s.repo != nil {
		s.repo.Close()
	}
	s.clone.release()
}

// files lists the files of tree id in order of Path; false when the tree cannot be read.
func (s *lockedTrees) files(id string) ([]catalog.TreeFile, bool) {
	if s.repo == nil {
		return nil, false
	}
	var out []catalog.TreeFile
	if err := s.walk(plumbing.NewHash(id), "", &out, 0); err != nil {
		return nil, false
	}
	slices.SortFunc(out, func(a, b catalog.TreeFile) int { return strings.Compare(a.Path, b.Path) })
	return out, true
}

func (s *lockedTrees) walk(h gitstore.Hash, prefix string, out *[]catalog.TreeFile, depth int) error {
	if depth > 64 || len(*out) > maxLockedTreeFiles {
		return fmt.Errorf("tree %s: too deep or too large", h)
	}
	entries, err := s.repo.Objects().ReadTree(h)
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := prefix + e.Name
		if e.Mode == filemode.Dir {
			if err := s.walk(e.Hash, p+"/", out, depth+1); err != nil {
				return err
			}
			continue
		}
		*out = append(*out, catalog.TreeFile{Path: p, Mode: fmt.Sprintf("%06o", uint32(e.Mode)), ID: e.Hash.String()})
	}
	return nil
}
