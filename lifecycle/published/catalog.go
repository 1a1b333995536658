package published

import (
	"fmt"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// CatalogAt lists the skills in folder dir of the root tree root of g as agents load them,
// reading only their frontmatter; label names the version in errors. Results are cached by
// the folder's tree id.
func CatalogAt(g *gitstore.Repo, root gitstore.Hash, dir, label string) (*catalog.Result, error) {
	e, ok, err := g.Objects().EntryAt(root, dir)
	if err != nil {
		return nil, WithObjectHint(fmt.Errorf("%s:%s: %w", label, dir, err))
	}
	if !ok || e.Mode != filemode.Dir {
		return &catalog.Result{}, nil
	}
	cache := catalogCacheOf(g.CommonDir())
	if res, hit := cache.get(e.Hash); hit {
		prefix(res, dir)
		return res, nil
	}
	res, changed, err := catalogOf(g, cache, e.Hash)
	if err != nil {
		return nil, WithObjectHint(fmt.Errorf("%s:%s: %w", label, dir, err))
	}
	if cacheable(res) && (changed < 0 || changed >= rewriteAfter) {
		cache.put(e.Hash, res)
		cache.setLatest(e.Hash)
	}
	prefix(res, dir)
	return res, nil
}

// listingOptions is how the published catalog is read: as agents load it, frontmatter only.
var listingOptions = catalog.Options{Mode: catalog.Lenient, FrontmatterOnly: true}

// rewriteAfter is how many skill folders a listing derived from the cached one must have read
// again before it is cached in its place: a publish that changes one skill does not write a
// listing of every skill (a batch of 1,000 publishes would write 1,000), and the next
// listing reads again the few skills changed since the cached one.
const rewriteAfter = 16

// catalogOf lists the skills of the skills folder tree. After a publish, the cache holds the
// listing of the folder as it was before, and only the skills changed since are read again
// (changed says how many folders); otherwise every skill is (changed is -1).
func catalogOf(g *gitstore.Repo, cache catalogCache, tree gitstore.Hash) (*catalog.Result, int, error) {
	fsys := g.Objects().TreeFS(tree)
	if prev, ok := cache.latest(); ok {
		if old, hit := cache.get(prev); hit {
			changes, stray, err := ledger.DiffFolders(ledger.StoreOf(g), prev, tree)
			if err == nil && len(stray) == 0 {
				if res, ok := catalog.Update(old, fsys, changedPaths(changes), listingOptions); ok {
					return res, len(changes), nil
				}
			}
		}
	}
	res, err := catalog.Discover(fsys, ".", listingOptions)
	return res, -1, err
}

// changedPaths lists the folders of changes, relative to the folder walked.
func changedPaths(changes []ledger.FolderChange) []string {
	out := make([]string, len(changes))
	for i, f := range changes {
		out[i] = strings.TrimPrefix(f.Path, "./")
	}
	return out
}

// prefix turns paths relative to the skills folder dir into repository paths.
func prefix(res *catalog.Result, dir string) {
	for _, s := range res.Skills {
		s.Dir = path.Join(dir, s.Dir)
	}
	for i := range res.Problems {
		res.Problems[i].File = path.Join(dir, res.Problems[i].File)
	}
	for i := range res.Folders {
		res.Folders[i] = path.Join(dir, res.Folders[i])
	}
}
