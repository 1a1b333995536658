package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
)

// contentHash hashes a skill folder as written on disk: every regular file with its
// path, execute bit and bytes, and every symbolic link with its target, in lexical order.
// Folders themselves are left out, so an empty folder changes nothing.
type contentHash struct{ h hash.Hash }

func newContentHash() *contentHash { return &contentHash{h: sha256.New()} }

func (c *contentHash) file(name string, exec bool, size int64) {
	x := "-"
	if exec {
		x = "x"
	}
	fmt.Fprintf(c.h, "f %q %s %d\n", name, x, size)
}

func (c *contentHash) link(name, target string) { fmt.Fprintf(c.h, "l %q %q\n", name, target) }

func (c *contentHash) other(name string) { fmt.Fprintf(c.h, "o %q\n", name) }

func (c *contentHash) sum() string { return "sha256:" + hex.EncodeToString(c.h.Sum(nil)) }

// linkHash is the written hash of a skill installed as a symbolic link.
func linkHash(target string) string { return "link:" + target }

// hashInstalled hashes folder name of root as installed: a folder by its content, a
// symbolic link by its target, anything else by its type.
func hashInstalled(root *os.Root, name string) (string, error) {
	info, err := root.Lstat(name)
	if err != nil {
		return "", err
	}
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		t, err := root.Readlink(name)
		return linkHash(t), err
	case info.IsDir():
		return hashFolder(root.FS(), name, func(p string) (string, error) { return root.Readlink(p) })
	}
	return "other:" + info.Mode().Type().String(), nil
}

// hashFolder hashes folder dir of fsys with contentHash; readlink reads a link's target.
func hashFolder(fsys fs.FS, dir string, readlink func(string) (string, error)) (string, error) {
	c := newContentHash()
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := relTo(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			t, err := readlink(p)
			if err != nil {
				return err
			}
			c.link(rel, t)
		case d.Type().IsRegular():
			return hashFile(c, fsys, p, rel)
		default:
			c.other(rel)
		}
		return nil
	})
	return c.sum(), err
}

func hashFile(c *contentHash, fsys fs.FS, p, rel string) error {
	f, err := fsys.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	c.file(rel, st.Mode()&0o111 != 0, st.Size())
	_, err = io.Copy(c.h, f)
	return err
}

// relTo returns p relative to dir; both are slash paths and p is dir or below it.
func relTo(dir, p string) string {
	if p == dir {
		return "."
	}
	if dir == "." {
		return p
	}
	return p[len(dir)+1:]
}
