package agentsync

import (
	"runtime"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
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
	paths := r.PathChecker()
	defer paths.Save()
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(skills)) {
		wg.Go(func() {
			for i := range jobs {
				out[i] = r.checkFolder(paths, root, skills[i].Dir)
			}
		})
	}
	for i := range skills {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return out
}

func (r *repo) checkFolder(paths *lifecycle.PathChecker, root gitstore.Hash, dir string) folderCheck {
	e, ok, err := r.Git.EntryAt(root, dir)
	if err != nil || !ok || e.Mode != filemode.Dir {
		return folderCheck{unreadable: true, err: err}
	}
	return folderCheck{entry: e, refused: paths.Check(dir, e.Hash)}
}
