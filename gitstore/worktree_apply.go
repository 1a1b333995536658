package gitstore

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/skillgit/skillgit/internal/interrupt"
	"github.com/skillgit/skillgit/internal/lazyregexp"
)

// apply removes the files the new tree drops, writes the ones it adds or
// changes, and updates the index entries to match.
func (u *wtUpdate) apply() error {
	u.sweepTemps()
	var gone []string
	for p, o := range u.old {
		// A submodule's folder and a file cannot replace each other by
		// rename.
		if n, ok := u.new[p]; !ok || n.Mode != o.Mode && (n.Mode == filemode.Submodule || o.Mode == filemode.Submodule) {
			gone = append(gone, p)
		}
	}
	slices.Sort(gone)
	for _, p := range gone {
		if err := u.remove(p); err != nil {
			return err
		}
	}
	written := map[string]*index.Entry{}
	for _, p := range sortedKeys(u.new) {
		n := u.new[p]
		if o, ok := u.old[p]; ok && o == n {
			continue
		}
		e, err := u.write(p, n)
		if err != nil {
			return err
		}
		written[p] = e
	}
	u.updateIndex(written)
	return nil
}

func sortedKeys(m map[string]TreeEntry) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// remove deletes file p and then the folders it leaves empty, up to the
// prefix it belongs to.
func (u *wtUpdate) remove(p string) error {
	err := u.root.Remove(filepath.FromSlash(p))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		if u.old[p].Mode == filemode.Submodule {
			return nil // a checked-out submodule stays where it is
		}
		return fmt.Errorf("%s: removing: %w", p, err)
	}
	for d := path.Dir(p); d != "." && underAny(d, u.prefixes, false); d = path.Dir(d) {
		if u.root.Remove(filepath.FromSlash(d)) != nil {
			break
		}
	}
	return nil
}

// write puts entry n at p through a temporary file renamed into place,
// and returns its new index entry.
func (u *wtUpdate) write(p string, n TreeEntry) (*index.Entry, error) {
	dir := filepath.FromSlash(path.Dir(p))
	if err := u.root.MkdirAll(dir, 0o777); err != nil {
		return nil, fmt.Errorf("%s: creating folder: %w", p, err)
	}
	var err error
	switch n.Mode {
	case filemode.Submodule:
		err = u.root.MkdirAll(filepath.FromSlash(p), 0o777)
	case filemode.Symlink:
		err = u.writeLink(p, n)
	default:
		err = u.writeFile(p, n)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: writing: %w", p, err)
	}
	fi, err := u.root.Lstat(filepath.FromSlash(p))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	e := &index.Entry{Name: p, Hash: n.Hash, Mode: n.Mode}
	if n.Mode != filemode.Submodule {
		fillStat(e, fi)
	}
	return e, nil
}

func (u *wtUpdate) writeFile(p string, n TreeEntry) error {
	data, err := u.r.Objects().ReadBlob(n.Hash, MaxFileSize)
	if err != nil {
		return err
	}
	perm := fs.FileMode(0o666)
	if n.Mode == filemode.Executable {
		perm = 0o777
	}
	tmp := tempName(p)
	defer u.track(tmp)()
	f, err := u.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if tempMade != nil {
		tempMade(filepath.Join(u.root.Name(), tmp))
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return u.renameInto(tmp, p, err)
}

func (u *wtUpdate) writeLink(p string, n TreeEntry) error {
	target, err := u.r.Objects().ReadBlob(n.Hash, maxLinkTarget)
	if err != nil {
		return err
	}
	tmp := tempName(p)
	defer u.track(tmp)()
	err = u.root.Symlink(string(target), tmp)
	return u.renameInto(tmp, p, err)
}

// track registers the temporary file tmp, inside the working tree, for
// removal if the process stops before renameInto is done with it.
func (u *wtUpdate) track(tmp string) func() {
	return interrupt.Track(filepath.Join(u.root.Name(), tmp))
}

// renameInto moves a finished temporary file over p, or removes it when
// writing it failed.
func (u *wtUpdate) renameInto(tmp, p string, err error) error {
	if err == nil {
		err = u.root.Rename(tmp, filepath.FromSlash(p))
	}
	if err != nil {
		u.root.Remove(tmp)
	}
	return err
}

// tempPattern matches the names tempName makes.
var tempPattern = lazyregexp.New(`^\.skillgit-[0-9a-f]{16}\.tmp$`)

// sweepTemps removes temporary files that an update killed part way left in the folders this
// one writes to. Every update holds the index lock, so none of them is another's file in use.
func (u *wtUpdate) sweepTemps() {
	dirs := map[string]bool{}
	for _, m := range []map[string]TreeEntry{u.old, u.new} {
		for p := range m {
			dirs[path.Dir(p)] = true
		}
	}
	for d := range dirs {
		entries, err := fs.ReadDir(u.root.FS(), d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if e.Type().IsRegular() && tempPattern().MatchString(e.Name()) {
				u.root.Remove(filepath.FromSlash(path.Join(d, e.Name())))
			}
		}
	}
}

// tempName returns a fresh name beside p for a file being written.
func tempName(p string) string {
	var b [8]byte
	rand.Read(b[:])
	return filepath.FromSlash(path.Join(path.Dir(p), ".skillgit-"+hex.EncodeToString(b[:])+".tmp"))
}

// updateIndex drops the entries of removed paths and sets those of
// written ones, keeping every other entry as it was.
func (u *wtUpdate) updateIndex(written map[string]*index.Entry) {
	var under []*index.Entry
	for p, e := range u.byPath {
		_, inNew := u.new[p]
		_, inOld := u.old[p]
		if (inOld && !inNew) || written[p] != nil {
			continue
		}
		under = append(under, e)
	}
	for _, e := range written {
		under = append(under, e)
	}
	u.li.setUnder(u.prefixes, under)
}
