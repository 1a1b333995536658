package agentsync

import (
	"io/fs"

	"github.com/skillgit/skillgit/gitstore"
)

// lockedFS shows each locked skill's tree at its folder in the repository (prefix/NAME, or
// the folder the lock records for a skill in a category folder), whatever commit each was
// locked at: the source of a sync that installs what the lock pins.
type lockedFS struct {
	g *gitstore.Repo
	// trees holds each skill's tree by its folder.
	trees map[string]gitstore.Hash
}

// route finds the tree a path lies in and the path inside it: the tree of the folder that
// is the path or its nearest parent.
func (l *lockedFS) route(op, name string) (fs.FS, string, error) {
	if fs.ValidPath(name) {
		for i := len(name); i >= 0; i-- {
			if i < len(name) && name[i] != '/' {
				continue
			}
			if tree, ok := l.trees[name[:i]]; ok {
				inner := "."
				if i < len(name) {
					inner = name[i+1:]
				}
				return l.g.Objects().TreeFS(tree), inner, nil
			}
		}
	}
	return nil, "", &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
}

// Open opens the file name of the locked trees.
func (l *lockedFS) Open(name string) (fs.File, error) {
	t, p, err := l.route("open", name)
	if err != nil {
		return nil, err
	}
	return t.Open(p)
}

// ReadDir lists the folder name of the locked trees.
func (l *lockedFS) ReadDir(name string) ([]fs.DirEntry, error) {
	t, p, err := l.route("readdir", name)
	if err != nil {
		return nil, err
	}
	return fs.ReadDir(t, p)
}

// Stat describes the file name of the locked trees.
func (l *lockedFS) Stat(name string) (fs.FileInfo, error) {
	t, p, err := l.route("stat", name)
	if err != nil {
		return nil, err
	}
	return fs.Stat(t, p)
}

// ReadLink reads the symbolic link name of the locked trees.
func (l *lockedFS) ReadLink(name string) (string, error) {
	t, p, err := l.route("readlink", name)
	if err != nil {
		return "", err
	}
	return fs.ReadLink(t, p)
}

// Lstat describes the file name of the locked trees without following a link.
func (l *lockedFS) Lstat(name string) (fs.FileInfo, error) {
	t, p, err := l.route("lstat", name)
	if err != nil {
		return nil, err
	}
	return fs.Lstat(t, p)
}
