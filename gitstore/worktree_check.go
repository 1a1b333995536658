package gitstore

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// maxDirtyListed bounds how many dirty files an error names.
const maxDirtyListed = 20

// check finds, before anything changes, every path under the prefixes
// whose index entry or file differs from the old tree, and every untracked
// file the new tree would overwrite. A path that already is what the new
// tree holds is no obstacle: nothing of the user's is lost by writing it.
func (u *wtUpdate) check() error {
	var dirty []string
	note := func(p, why string) { dirty = append(dirty, p+" ("+why+")") }
	if err := u.checkIndex(note); err != nil {
		return err
	}
	states := map[string]string{}
	for p, o := range u.old {
		if why := u.diskDiffers(p, o, states); why != "" {
			note(p, why)
		}
	}
	for p, n := range u.new {
		if _, tracked := u.old[p]; tracked || u.stagedOther(p, n) {
			continue // judged above; a file staged otherwise is noted once, as staged
		}
		if why := u.blocked(p, states); why != "" {
			note(p, why)
		}
	}
	if len(dirty) == 0 {
		return nil
	}
	slices.Sort(dirty)
	if n := len(dirty); n > maxDirtyListed {
		dirty = append(dirty[:maxDirtyListed], fmt.Sprintf("and %d more", n-maxDirtyListed))
	}
	return fmt.Errorf("worktree: %w: %s; commit, stash or remove them, then retry", ErrDirty, strings.Join(dirty, ", "))
}

// checkIndex collects the index entries under the prefixes and notes
// those that differ from the old tree.
func (u *wtUpdate) checkIndex(note func(p, why string)) error {
	under, err := u.li.entriesUnder(u.prefixes)
	if err != nil {
		return err
	}
	u.byPath = make(map[string]*index.Entry, len(under))
	for _, e := range under {
		u.byPath[e.Name] = e
	}
	for p, e := range u.byPath {
		o, tracked := u.old[p]
		n, kept := u.new[p]
		switch {
		case kept && e.Hash == n.Hash && sameMode(e.Mode, n.Mode) && !e.SkipWorktree:
		case !tracked:
			note(p, "staged")
		case e.Hash != o.Hash || !sameMode(e.Mode, o.Mode):
			note(p, "staged changes")
		case e.SkipWorktree:
			note(p, "skip-worktree set by sparse checkout")
		}
	}
	for p := range u.old {
		_, kept := u.new[p]
		if _, ok := u.byPath[p]; !ok && kept {
			note(p, "deletion staged")
		}
	}
	return nil
}

// stagedOther reports whether the index holds p with other content than the new entry n.
func (u *wtUpdate) stagedOther(p string, n TreeEntry) bool {
	e, ok := u.byPath[p]
	return ok && (e.Hash != n.Hash || !sameMode(e.Mode, n.Mode))
}

func sameMode(a, b filemode.FileMode) bool {
	return a == b || a.IsRegular() && b.IsRegular() && a != filemode.Executable && b != filemode.Executable
}

// diskDiffers says how the file at p differs from old entry o, or "".
func (u *wtUpdate) diskDiffers(p string, o TreeEntry, states map[string]string) string {
	for _, dir := range ancestors(p) {
		if u.dirState(dir, states) != "dir" {
			return "a parent folder was replaced or removed"
		}
	}
	fi, err := u.root.Lstat(filepath.FromSlash(p))
	if errors.Is(err, fs.ErrNotExist) {
		return diffIf(u.kept(p), "deleted")
	}
	if err != nil {
		return "unreadable: " + err.Error()
	}
	why := u.differsFrom(p, o, fi)
	if why != "" && u.isNew(p, fi) {
		return ""
	}
	return why
}

// kept reports whether the new tree has an entry at p.
func (u *wtUpdate) kept(p string) bool {
	_, ok := u.new[p]
	return ok
}

// isNew reports whether the regular file fi at p already holds the new tree's entry.
func (u *wtUpdate) isNew(p string, fi fs.FileInfo) bool {
	n, ok := u.new[p]
	if !ok || !fi.Mode().IsRegular() || !n.Mode.IsRegular() && n.Mode != filemode.Executable {
		return false
	}
	if u.fileMode && (fi.Mode().Perm()&0o111 != 0) != (n.Mode == filemode.Executable) {
		return false
	}
	h, err := u.hashFile(p, fi.Size())
	return err == nil && h == n.Hash
}

// differsFrom says how the existing file fi at p differs from old entry o, or "".
func (u *wtUpdate) differsFrom(p string, o TreeEntry, fi fs.FileInfo) string {
	switch o.Mode {
	case filemode.Submodule:
		return diffIf(!fi.IsDir(), "type changed")
	case filemode.Symlink:
		if fi.Mode()&fs.ModeSymlink == 0 {
			return "type changed"
		}
		target, err := u.root.Readlink(filepath.FromSlash(p))
		return diffIf(err != nil || plumbing.ComputeHash(plumbing.BlobObject, []byte(target)) != o.Hash, "modified")
	}
	if !fi.Mode().IsRegular() {
		return "type changed"
	}
	if u.fileMode && (fi.Mode().Perm()&0o111 != 0) != (o.Mode == filemode.Executable) {
		return "mode changed"
	}
	if u.statClean(p, fi) {
		return ""
	}
	h, err := u.hashFile(p, fi.Size())
	return diffIf(err != nil || h != o.Hash, "modified")
}

func diffIf(cond bool, why string) string {
	if cond {
		return why
	}
	return ""
}

// statClean applies git's shortcut: a file whose size, mtime and inode
// match its index entry is unchanged, unless it was modified in the same
// instant the index was written ("racily clean").
func (u *wtUpdate) statClean(p string, fi fs.FileInfo) bool {
	e := u.byPath[p]
	return e != nil && e.Size == uint32(fi.Size()) && e.ModifiedAt.Equal(fi.ModTime()) &&
		(e.Inode == 0 || e.Inode == inode(fi)) && fi.ModTime().Before(u.li.mtime)
}

func (u *wtUpdate) hashFile(p string, size int64) (Hash, error) {
	f, err := u.root.Open(filepath.FromSlash(p))
	if err != nil {
		return ZeroHash, err
	}
	defer f.Close()
	h := plumbing.NewHasher(plumbing.BlobObject, size)
	n, err := io.Copy(h, f)
	if err == nil && n != size {
		err = fmt.Errorf("%s changed while it was read", p)
	}
	return h.Sum(), err
}

// blocked says why the new file p cannot be written, or "".
func (u *wtUpdate) blocked(p string, states map[string]string) string {
	for _, dir := range ancestors(p) {
		switch u.dirState(dir, states) {
		case "absent":
			return ""
		case "dir":
			continue
		}
		if _, tracked := u.old[dir]; tracked {
			return "" // a tracked file that the update removes
		}
		return dir + " is an untracked file or link in the way"
	}
	fi, err := u.root.Lstat(filepath.FromSlash(p))
	if errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	if err == nil && (fi.IsDir() && u.onlyTracked(p) || u.isNew(p, fi)) {
		return ""
	}
	return "untracked, would be overwritten"
}

// ancestors returns the folders above slash path p, outermost first.
func ancestors(p string) []string {
	var out []string
	for d := path.Dir(p); d != "."; d = path.Dir(d) {
		out = append(out, d)
	}
	slices.Reverse(out)
	return out
}

// dirState classifies a folder path as "dir", "absent" or "other" (a
// file or a symbolic link, which is never written through).
func (u *wtUpdate) dirState(dir string, states map[string]string) string {
	if s, ok := states[dir]; ok {
		return s
	}
	s := "other"
	fi, err := u.root.Lstat(filepath.FromSlash(dir))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		s = "absent"
	case err == nil && fi.IsDir():
		s = "dir"
	}
	states[dir] = s
	return s
}

// onlyTracked reports whether folder dir holds nothing but files of the
// old tree, which the update removes before writing a file in its place.
func (u *wtUpdate) onlyTracked(dir string) bool {
	ok := true
	fs.WalkDir(u.root.FS(), dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			ok = false
			return fs.SkipAll
		}
		if _, tracked := u.old[p]; !d.IsDir() && !tracked {
			ok = false
			return fs.SkipAll
		}
		return nil
	})
	return ok
}
