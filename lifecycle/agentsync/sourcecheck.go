package agentsync

import (
	"errors"
	"path"
	"runtime"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/parallel"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/pathcheck"
)

// folderCheck is what readSource learns of one skill's folder in the channel's tree.
type folderCheck struct {
	entry gitstore.TreeEntry
	// unreadable is set when the folder is missing or not a folder, with err saying why.
	unreadable bool
	err        error
	// refused is the path policy's verdict, when the folder is readable.
	refused error
}

// checkFolders looks up every skill's folder in tree root and checks its paths against
// the policy, with one worker per CPU: the lookups only read the object store. A folder that
// passed before, at the same path and with the same tree, is not walked again.
func (r *repo) checkFolders(root gitstore.Hash, skills []*catalog.Skill) []folderCheck {
	out := make([]folderCheck, len(skills))
	paths := pathcheck.New(r.Git())
	defer paths.Save()
	parents := r.parentTrees(root, skills)
	parallel.For(len(skills), runtime.GOMAXPROCS(0), func(i int) {
		out[i] = r.checkFolder(paths, parents, root, skills[i].Dir)
	})
	return out
}

func (r *repo) checkFolder(paths *pathcheck.Checker, parents map[string][]gitstore.TreeEntry, root gitstore.Hash, dir string) folderCheck {
	var e gitstore.TreeEntry
	var ok bool
	var err error
	if entries := parents[path.Dir(dir)]; entries != nil {
		e, ok = gitstore.FindEntry(entries, path.Base(dir))
	} else {
		e, ok, err = r.Git().Objects().EntryAt(root, dir)
	}
	if err != nil || !ok || e.Mode != filemode.Dir {
		return folderCheck{unreadable: true, err: err}
	}
	switch err := paths.Check(dir, e.Hash); {
	case err == nil:
		return folderCheck{entry: e}
	case errors.Is(err, lifecycle.ErrRefused):
		return folderCheck{entry: e, refused: err}
	default:
		return folderCheck{unreadable: true, err: err}
	}
}

// parentTrees reads, once each, the trees of the folders in tree root that hold the skills'
// folders, by path. A folder that cannot be read as a tree is left out: its skills are then
// looked up one by one, which gives the error.
func (r *repo) parentTrees(root gitstore.Hash, skills []*catalog.Skill) map[string][]gitstore.TreeEntry {
	out := map[string][]gitstore.TreeEntry{}
	for _, s := range skills {
		p := path.Dir(s.Dir)
		if _, seen := out[p]; seen {
			continue
		}
		out[p] = nil
		e, ok, err := r.Git().Objects().EntryAt(root, p)
		if err != nil || !ok || e.Mode != filemode.Dir {
			continue
		}
		if entries, err := r.Git().Objects().ReadTreeShared(e.Hash); err == nil && len(entries) > 0 {
			out[p] = entries
		}
	}
	return out
}
