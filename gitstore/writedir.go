package gitstore

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// WriteDir stores folder dir of fsys, with everything below it, as a tree
// and returns the tree's id. Regular files become blobs with mode 100755
// when any execute bit is set and 100644 otherwise; folders become trees
// (empty ones are left out, as git does); a symbolic link is stored as a
// link, its target as the blob, only when fsys implements fs.ReadLinkFS,
// and is refused otherwise. Anything else is refused, as are files larger
// than MaxFileSize, more than MaxDirEntries entries and names git would
// not check out; errors name the offending path. Pass an os.Root's FS to
// keep the walk inside the folder.
func (r *Writes) WriteDir(fsys fs.FS, dir string) (Hash, error) {
	if !fs.ValidPath(dir) {
		return ZeroHash, fmt.Errorf("folder %q is not a valid slash path inside the file system", dir)
	}
	return (&dirWriter{r: r, fsys: fsys, limit: MaxDirEntries, maxFile: MaxFileSize}).root(dir)
}

// HashDir returns the id that WriteDir would give folder dir of fsys,
// under the same rules and limits, without storing anything: with it, a
// folder in a working tree is compared with a git tree, or used as a
// cache key, at the cost of reading it once.
func HashDir(fsys fs.FS, dir string) (Hash, error) {
	if !fs.ValidPath(dir) {
		return ZeroHash, fmt.Errorf("folder %q is not a valid slash path inside the file system", dir)
	}
	return (&dirWriter{fsys: fsys, limit: MaxDirEntries, maxFile: MaxFileSize}).root(dir)
}

// root stores folder dir; an empty folder becomes the empty tree.
func (w *dirWriter) root(dir string) (Hash, error) {
	h, err := w.tree(dir, 0)
	if err != nil || !h.IsZero() {
		return h, err
	}
	return w.writeTree(nil)
}

// dirWriter walks one folder for WriteDir and counts what it stores. With
// no repository it only computes ids, for HashDir.
type dirWriter struct {
	r       *Writes // nil: store nothing
	fsys    fs.FS
	limit   int   // most entries
	maxFile int64 // largest file
	entries int
}

// tree stores folder dir and returns ZeroHash when it holds nothing.
func (w *dirWriter) tree(dir string, depth int) (Hash, error) {
	if depth > maxDepth {
		return ZeroHash, fmt.Errorf("%s: folders are nested deeper than %d levels; flatten them", dir, maxDepth)
	}
	list, err := fs.ReadDir(w.fsys, dir)
	if err != nil {
		return ZeroHash, fmt.Errorf("reading folder %s: %w", dir, err)
	}
	entries := make([]TreeEntry, 0, len(list))
	for _, d := range list {
		e, ok, err := w.entry(path.Join(dir, d.Name()), d, depth)
		if err != nil {
			return ZeroHash, err
		}
		if ok {
			entries = append(entries, e)
		}
	}
	if len(entries) == 0 {
		return ZeroHash, nil
	}
	slices.SortFunc(entries, compareEntries)
	return w.writeTree(entries)
}

func (w *dirWriter) writeTree(entries []TreeEntry) (Hash, error) {
	if w.r == nil {
		return plumbing.ComputeHash(plumbing.TreeObject, encodeTree(entries)), nil
	}
	return w.r.writeTree(entries)
}

func (w *dirWriter) writeBlob(data []byte) (Hash, error) {
	if w.r == nil {
		return plumbing.ComputeHash(plumbing.BlobObject, data), nil
	}
	return w.r.WriteBlob(data)
}

// entry stores one folder entry; ok is false for an empty folder.
func (w *dirWriter) entry(p string, d fs.DirEntry, depth int) (e TreeEntry, ok bool, err error) {
	if w.entries++; w.entries > w.limit {
		return e, false, fmt.Errorf("%s: more than %d files and folders; split the folder", p, w.limit)
	}
	if err := checkEntryName(d.Name()); err != nil {
		return e, false, fmt.Errorf("%s: %w; rename or remove it", p, err)
	}
	e.Name = d.Name()
	switch t := d.Type(); {
	case t.IsDir():
		e.Mode = filemode.Dir
		e.Hash, err = w.tree(p, depth+1)
		return e, err == nil && !e.Hash.IsZero(), err
	case t&fs.ModeSymlink != 0:
		e.Mode = filemode.Symlink
		e.Hash, err = w.symlink(p)
	case t.IsRegular():
		e.Mode, e.Hash, err = w.file(p, d)
	default:
		err = fmt.Errorf("%s: not a regular file, folder or symbolic link (%s); remove it", p, t)
	}
	return e, err == nil, err
}

func (w *dirWriter) file(p string, d fs.DirEntry) (filemode.FileMode, Hash, error) {
	info, err := d.Info()
	if err != nil {
		return 0, ZeroHash, fmt.Errorf("%s: %w", p, err)
	}
	if info.Size() > w.maxFile {
		return 0, ZeroHash, w.tooLarge(p, info.Size())
	}
	f, err := w.fsys.Open(p)
	if err != nil {
		return 0, ZeroHash, fmt.Errorf("%s: %w", p, err)
	}
	defer f.Close()
	data, err := readSized(f, info.Size(), w.maxFile)
	if err != nil {
		return 0, ZeroHash, fmt.Errorf("%s: %w", p, err)
	}
	if int64(len(data)) > w.maxFile {
		return 0, ZeroHash, w.tooLarge(p, int64(len(data)))
	}
	mode := filemode.Regular
	if info.Mode().Perm()&0o111 != 0 {
		mode = filemode.Executable
	}
	h, err := w.writeBlob(data)
	return mode, h, err
}

func (w *dirWriter) tooLarge(p string, size int64) error {
	return fmt.Errorf("%s: file is at least %d bytes, larger than the limit of %d bytes; keep large files out of the folder", p, size, w.maxFile)
}

func (w *dirWriter) symlink(p string) (Hash, error) {
	rl, ok := w.fsys.(fs.ReadLinkFS)
	if !ok {
		return ZeroHash, fmt.Errorf("%s: is a symbolic link, and links cannot be read from this file system; replace it with the file it points to", p)
	}
	target, err := rl.ReadLink(p)
	if err != nil {
		return ZeroHash, fmt.Errorf("%s: %w", p, err)
	}
	if target == "" || len(target) > maxLinkTarget || strings.IndexByte(target, 0) >= 0 {
		return ZeroHash, fmt.Errorf("%s: symbolic link target is empty, longer than %d bytes or holds NUL; fix the link", p, maxLinkTarget)
	}
	return w.writeBlob([]byte(target))
}
