package gitstore

import (
	"bytes"
	"io"
	"io/fs"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/gitstore/internal/odb"
)

const objectTypeBlob = plumbing.BlobObject

// fileInfo describes a tree entry. Trees carry no times, so ModTime is
// the zero time.
type fileInfo struct {
	name string
	e    TreeEntry
	size int64   // -1 until known: Size asks fsys
	fsys *treeFS // nil when size is known
}

func (fi fileInfo) Name() string       { return fi.name }
func (fi fileInfo) Mode() fs.FileMode  { return fileMode(fi.e.Mode) }
func (fi fileInfo) ModTime() time.Time { return time.Time{} }
func (fi fileInfo) IsDir() bool        { return fi.e.isDir() }
func (fi fileInfo) Sys() any           { return fi.e }

// Size returns the blob's size, looking it up on every call until it is
// known. A blob that cannot be found reports 0; reading it reports why.
func (fi fileInfo) Size() int64 {
	if fi.size >= 0 || fi.fsys == nil {
		return max(fi.size, 0)
	}
	n, err := fi.fsys.r.objectSize(objectTypeBlob, fi.e.Hash)
	if err != nil {
		return 0
	}
	return n
}

// fileMode maps a git mode to the fs.FileMode a checkout would have.
func fileMode(m filemode.FileMode) fs.FileMode {
	switch m {
	case filemode.Dir:
		return fs.ModeDir | 0o755
	case filemode.Executable:
		return 0o755
	case filemode.Symlink:
		return fs.ModeSymlink | 0o777
	case filemode.Submodule:
		return fs.ModeIrregular
	}
	return 0o644
}

// dirEntry is a tree entry listed by ReadDir; Info looks up the size.
type dirEntry struct {
	fsys *treeFS
	e    TreeEntry
}

func (d *dirEntry) Name() string               { return d.e.Name }
func (d *dirEntry) IsDir() bool                { return d.e.isDir() }
func (d *dirEntry) Type() fs.FileMode          { return fileMode(d.e.Mode).Type() }
func (d *dirEntry) Info() (fs.FileInfo, error) { return d.fsys.info(d.e.Name, d.e) }
func (d *dirEntry) String() string             { return fs.FormatDirEntry(d) }

// dirFile is an open folder.
type dirFile struct {
	fsys    *treeFS
	name    string
	e       TreeEntry
	info    fs.FileInfo
	entries []fs.DirEntry
	loaded  bool
	off     int
}

func (d *dirFile) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *dirFile) Close() error               { return nil }

func (d *dirFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.name, Err: errIsDir}
}

// ReadDir reads the folder's entries in name order, n at a time.
func (d *dirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if !d.loaded {
		entries, err := d.fsys.dirEntries(d.name, d.e.Hash)
		if err != nil {
			return nil, err
		}
		d.entries, d.loaded = entries, true
	}
	rest := d.entries[d.off:]
	if n > 0 && len(rest) == 0 {
		return nil, io.EOF
	}
	if n > 0 && n < len(rest) {
		rest = rest[:n]
	}
	d.off += len(rest)
	return rest, nil
}

// blobFile is an open regular file; its content is read on first use.
type blobFile struct {
	fsys *treeFS
	name string
	e    TreeEntry
	info fs.FileInfo
	rd   *bytes.Reader
	buf  []byte // the content rd reads, owned by the file
}

// Stat describes the file. It reads the content, bounded by MaxFileSize,
// and takes the size from it: in a pack, finding the size alone costs as
// much, and a Read usually follows. A blob over the bound is not kept; its
// size is looked up instead.
func (f *blobFile) Stat() (fs.FileInfo, error) {
	fi, ok := f.info.(fileInfo)
	if !ok || f.load() != nil {
		return f.info, nil
	}
	fi.size, fi.fsys = f.rd.Size(), nil
	return fi, nil
}

// Close gives the content's buffer back for the next read (odb.Release): it was made for this
// file alone, and a read after Close reads the blob again.
func (f *blobFile) Close() error {
	if f.buf != nil {
		odb.Release(f.buf)
		f.buf, f.rd = nil, nil
	}
	return nil
}

func (f *blobFile) load() error {
	if f.rd != nil {
		return nil
	}
	b, err := f.fsys.r.ReadBlob(f.e.Hash, MaxFileSize)
	if err != nil {
		return &fs.PathError{Op: "read", Path: f.name, Err: err}
	}
	f.rd, f.buf = bytes.NewReader(b), b
	return nil
}

func (f *blobFile) Read(p []byte) (int, error) {
	if err := f.load(); err != nil {
		return 0, err
	}
	return f.rd.Read(p)
}

func (f *blobFile) ReadAt(p []byte, off int64) (int, error) {
	if err := f.load(); err != nil {
		return 0, err
	}
	return f.rd.ReadAt(p, off)
}

func (f *blobFile) Seek(offset int64, whence int) (int64, error) {
	if err := f.load(); err != nil {
		return 0, err
	}
	return f.rd.Seek(offset, whence)
}

// linkFile is an open symbolic link: it can be described, not read.
type linkFile struct {
	name string
	info fs.FileInfo
}

func (l *linkFile) Stat() (fs.FileInfo, error) { return l.info, nil }
func (l *linkFile) Close() error               { return nil }

func (l *linkFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: l.name, Err: errIsLink}
}
