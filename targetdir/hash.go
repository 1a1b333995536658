package targetdir

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
	return hashInstalledStamps(root, name, nil)
}

// hashInstalledStamps is hashInstalled that also records in sw, when not nil, the stamp of
// every entry of a folder as it is hashed. A folder's stamp is taken before its listing is
// read and a file's before its bytes are, so a change made meanwhile leaves a stamp that no
// longer matches, and the next sync hashes again.
func hashInstalledStamps(root *os.Root, name string, sw *stampWalk) (string, error) {
	info, err := root.Lstat(name)
	if err != nil {
		return "", err
	}
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		t, err := root.Readlink(name)
		return linkHash(t), err
	case info.IsDir():
		return hashFolder(root.FS(), name, func(p string) (string, error) { return root.Readlink(p) }, sw)
	}
	return "other:" + info.Mode().Type().String(), nil
}

// hashFolder hashes folder dir of fsys with contentHash; readlink reads a link's target.
// With sw not nil, it stamps every entry.
func hashFolder(fsys fs.FS, dir string, readlink func(string) (string, error), sw *stampWalk) (string, error) {
	c := newContentHash()
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := relTo(dir, p)
		if sw != nil && !d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			sw.add(rel, info)
		}
		switch {
		case d.IsDir():
		case d.Type()&fs.ModeSymlink != 0:
			t, err := readlink(p)
			if err != nil {
				return err
			}
			c.link(rel, t)
		case d.Type().IsRegular():
			return hashFile(c, fsys, p, rel, sw)
		default:
			c.other(rel)
		}
		return nil
	})
	return c.sum(), err
}

func hashFile(c *contentHash, fsys fs.FS, p, rel string, sw *stampWalk) error {
	f, err := fsys.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	sw.add(rel, st)
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
