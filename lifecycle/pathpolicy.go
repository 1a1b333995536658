package lifecycle

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// checkSourcePaths applies the path policy to the skill folder base of fsys before it is
// written into git; label names the source in the error.
func checkSourcePaths(fsys fs.FS, base, label string) error {
	return refusePaths(label, catalog.CheckFolder(fsys, base))
}

// CheckTreePaths applies the path policy to the skill folder dir, whose tree is folder: its
// path in the repository and every name below it.
func (r *Repo) CheckTreePaths(dir string, folder gitstore.Hash) error {
	if err := catalog.CheckPath(dir); err != nil {
		return refusePaths(dir, err)
	}
	return refusePaths(dir, catalog.CheckFolder(r.Git.TreeFS(folder), "."))
}

// checkCandidatePaths refuses a candidate whose skill folder, as its tip holds it, breaks
// the path policy: approve and publish never pass on what propose would have refused,
// however the branch was written.
func (r *Repo) checkCandidatePaths(ch *ledger.Chain) error {
	dir := ch.Path()
	folder, err := r.FolderAt(ch.Last().C.TreeHash, dir)
	if err != nil || folder.IsZero() {
		return err
	}
	if err := r.CheckTreePaths(dir, folder); err != nil {
		return fmt.Errorf("%s: %w", ch.ID, err)
	}
	return nil
}

// refusePaths marks a policy error as a refusal and names where it was found; any other
// error, such as an unreadable folder, passes through with the location.
func refusePaths(where string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, catalog.ErrUnsafePath):
		return fmt.Errorf("%s: %w: %w", where, ErrRefused, err)
	}
	return fmt.Errorf("%s: %w", where, err)
}
