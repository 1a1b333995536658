package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
)

var (
	errThroughLink = errors.New("path goes through a symbolic link, which is never followed")
	errNotDir      = errors.New("not a directory")
	errIsDir       = errors.New("is a directory")
	errIsLink      = errors.New("is a symbolic link, which is never followed; use ReadLink")
	errGitlink     = errors.New("is a submodule (gitlink), whose content is not in this repository")
)

// TreeFS returns tree as a read-only file system that reads trees lazily
// and caches them. It implements fs.ReadDirFS, fs.ReadFileFS, fs.StatFS
// and fs.ReadLinkFS. Symbolic links are reported with fs.ModeSymlink and
// never followed: opening one gives a file that cannot be read, and any
// path through one fails. Submodules (gitlinks) are reported with
// fs.ModeIrregular and cannot be opened. ReadFile and Read refuse blobs
// larger than MaxFileSize. A tree entry whose name git would not check out
// makes the paths that reach it fail. FileInfo.Sys returns the TreeEntry.
// ZeroHash is the empty tree.
func (r *Objects) TreeFS(tree Hash) fs.FS {
	return &treeFS{r: r, root: tree}
}

type treeFS struct {
	r    *Objects
	root Hash
}

// lookup resolves name to its tree entry without following links.
func (t *treeFS) lookup(op, name string) (TreeEntry, error) {
	if !fs.ValidPath(name) {
		return TreeEntry{}, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	if name == "." {
		return TreeEntry{Name: ".", Mode: filemode.Dir, Hash: t.root}, nil
	}
	parts := strings.Split(name, "/")
	tree := t.root
	for i, part := range parts {
		e, ok, err := t.r.childEntry(tree, part)
		switch {
		case err != nil:
			return TreeEntry{}, &fs.PathError{Op: op, Path: name, Err: err}
		case !ok:
			return TreeEntry{}, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
		}
		if err := checkEntryName(part); err != nil {
			return TreeEntry{}, &fs.PathError{Op: op, Path: name, Err: err}
		}
		if i == len(parts)-1 {
			return e, nil
		}
		switch {
		case e.isDir():
			tree = e.Hash
		case e.Mode == filemode.Symlink:
			return TreeEntry{}, &fs.PathError{Op: op, Path: name, Err: errThroughLink}
		default:
			return TreeEntry{}, &fs.PathError{Op: op, Path: name, Err: errNotDir}
		}
	}
	return TreeEntry{}, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
}

// Open opens the named file or folder.
func (t *treeFS) Open(name string) (fs.File, error) {
	e, err := t.lookup("open", name)
	if err != nil {
		return nil, err
	}
	if e.Mode == filemode.Submodule {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errGitlink}
	}
	info, err := t.info(name, e)
	if err != nil {
		return nil, err
	}
	switch e.Mode {
	case filemode.Dir:
		return &dirFile{fsys: t, name: name, e: e, info: info}, nil
	case filemode.Symlink:
		return &linkFile{name: name, info: info}, nil
	}
	return &blobFile{fsys: t, name: name, e: e, info: info}, nil
}

// Stat describes the named file without following a final link.
func (t *treeFS) Stat(name string) (fs.FileInfo, error) {
	e, err := t.lookup("stat", name)
	if err != nil {
		return nil, err
	}
	return t.info(name, e)
}

// Lstat describes the named file; links are never followed anyway.
func (t *treeFS) Lstat(name string) (fs.FileInfo, error) {
	e, err := t.lookup("lstat", name)
	if err != nil {
		return nil, err
	}
	return t.info(name, e)
}

// ReadLink returns the target of the named symbolic link.
func (t *treeFS) ReadLink(name string) (string, error) {
	e, err := t.lookup("readlink", name)
	if err != nil {
		return "", err
	}
	if e.Mode != filemode.Symlink {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	b, err := t.r.ReadBlob(e.Hash, maxLinkTarget)
	if err != nil {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: err}
	}
	return string(b), nil
}

// ReadFile returns the content of the named regular file.
func (t *treeFS) ReadFile(name string) ([]byte, error) {
	e, err := t.lookup("open", name)
	if err != nil {
		return nil, err
	}
	if err := readableBlob(e); err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	b, err := t.r.ReadBlob(e.Hash, MaxFileSize)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return b, nil
}

// readableBlob tells why an entry has no content to read, if it has none.
func readableBlob(e TreeEntry) error {
	switch e.Mode {
	case filemode.Dir:
		return errIsDir
	case filemode.Symlink:
		return errIsLink
	case filemode.Submodule:
		return errGitlink
	}
	return nil
}

// ReadDir lists the named folder sorted by name.
func (t *treeFS) ReadDir(name string) ([]fs.DirEntry, error) {
	e, err := t.lookup("readdir", name)
	if err != nil {
		return nil, err
	}
	if !e.isDir() {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errNotDir}
	}
	return t.dirEntries(name, e.Hash)
}

func (t *treeFS) dirEntries(name string, tree Hash) ([]fs.DirEntry, error) {
	entries, err := t.r.readTree(tree)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
	}
	out := make([]fs.DirEntry, len(entries))
	backing := make([]dirEntry, len(entries))
	for i, e := range entries {
		if err := checkEntryName(e.Name); err != nil {
			return nil, &fs.PathError{Op: "readdir", Path: name, Err: fmt.Errorf("tree %s: %w", tree, err)}
		}
		backing[i] = dirEntry{fsys: t, e: e}
		out[i] = &backing[i]
	}
	byName := func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) }
	// Git order differs from name order only around names that sort
	// below "/", so most folders need no sorting.
	if !slices.IsSortedFunc(out, byName) {
		slices.SortFunc(out, byName)
	}
	return out, nil
}

// info describes entry e found at name. A blob's size is looked up only
// when asked for: finding it in a pack costs about as much as reading the
// blob, and most callers only want to know what kind of entry it is.
func (t *treeFS) info(name string, e TreeEntry) (fs.FileInfo, error) {
	fi := fileInfo{name: path.Base(name), e: e}
	if !e.isDir() && e.Mode != filemode.Submodule {
		fi.fsys, fi.size = t, -1
	}
	return fi, nil
}
