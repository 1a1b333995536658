package agentsync

import (
	"io/fs"
	"strings"

	"github.com/skillgit/skillgit/gitstore"
)

// lockedFS shows each locked skill's tree at its folder, prefix/NAME, whatever commit each
// was locked at: the source of a sync that installs what the lock pins.
type lockedFS struct {
	g      *gitstore.Repo
	prefix string
	trees  map[string]gitstore.Hash
}

// route finds the tree a path lies in and the path inside it.
func (l *lockedFS) route(op, name string) (fs.FS, string, error) {
	rest := name
	if l.prefix != "" && l.prefix != "." {
		var ok bool
		if rest, ok = strings.CutPrefix(name, l.prefix+"/"); !ok {
			return nil, "", &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
		}
	}
	skill, inner, _ := strings.Cut(rest, "/")
	tree, ok := l.trees[skill]
	if !ok || !fs.ValidPath(name) {
		return nil, "", &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
	}
	if inner == "" {
		inner = "."
	}
	return l.g.Objects().TreeFS(tree), inner, nil
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
