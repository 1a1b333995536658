// Package pathcheck applies the path policy (catalog.CheckPath, catalog.CheckFolder) to skill
// folders, on disk before skillgit writes them into git and in git trees before skillgit
// acts on them or installs them, and remembers the folders of git trees that passed.
package pathcheck

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// Source applies the path policy to the skill folder base of fsys before it is written into
// git; label names the source in the error.
func Source(fsys fs.FS, base, label string) error {
	return Refuse(label, catalog.CheckFolder(fsys, base))
}

// Tree applies the path policy to the skill folder dir of g, whose tree is folder: its path
// in the repository and every name below it.
func Tree(g *gitstore.Repo, dir string, folder gitstore.Hash) error {
	if err := catalog.CheckPath(dir); err != nil {
		return Refuse(dir, err)
	}
	return Refuse(dir, catalog.CheckFolder(g.Objects().TreeFS(folder), "."))
}

// Refuse marks a policy error as a refusal (ledger.ErrRefused) and names where it was found;
// any other error, such as an unreadable folder, passes through with the location.
func Refuse(where string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, catalog.ErrUnsafePath):
		return fmt.Errorf("%s: %w: %w", where, ledger.ErrRefused, err)
	}
	return fmt.Errorf("%s: %w", where, err)
}
