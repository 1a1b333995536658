package catalog

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
)

// walkSkill copies skill folder dir of src into folder to through w, feeding c what it
// writes; with a nil w it only hashes. A symbolic link is kept only when it points inside
// the skill; other links and special files are left out, each with a warning.
func walkSkill(src fs.FS, dir string, c *contentHash, w *folderCopy, warn *[]string) error {
	return fs.WalkDir(src, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := relTo(dir, p)
		switch t := d.Type(); {
		case d.IsDir():
			return w.mkdir(rel)
		case t&fs.ModeSymlink != 0:
			return copyLink(src, p, rel, c, w, warn)
		case t.IsRegular():
			return copyFile(src, p, rel, c, w)
		}
		*warn = append(*warn, fmt.Sprintf("%s: not a regular file, folder or link; not installed", p))
		return nil
	})
}

func copyFile(src fs.FS, p, rel string, c *contentHash, w *folderCopy) error {
	f, err := src.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	exec := st.Mode()&0o111 != 0
	c.file(rel, exec, st.Size())
	if w == nil {
		_, err = io.Copy(c.h, f)
		return err
	}
	perm := fs.FileMode(0o644)
	if exec {
		perm = 0o755
	}
	if err := w.w.WriteFile(w.join(rel), io.TeeReader(f, c.h), perm); err != nil {
		return err
	}
	w.paths = append(w.paths, rel)
	return nil
}

func copyLink(src fs.FS, p, rel string, c *contentHash, w *folderCopy, warn *[]string) error {
	target, err := fs.ReadLink(src, p)
	if errors.Is(err, errors.ErrUnsupported) {
		*warn = append(*warn, fmt.Sprintf("%s: a symbolic link this source cannot read; not installed", p))
		return nil
	}
	if err != nil {
		return err
	}
	if path.IsAbs(target) || !fs.ValidPath(path.Join(path.Dir(rel), target)) {
		*warn = append(*warn, fmt.Sprintf("%s: a symbolic link to %s, outside the skill; not installed", p, target))
		return nil
	}
	c.link(rel, target)
	if w == nil {
		return nil
	}
	if err := w.w.Symlink(target, w.join(rel)); err != nil {
		return err
	}
	w.paths = append(w.paths, rel)
	return nil
}

// folderCopy is a folder being written through a Writer.
type folderCopy struct {
	w    Writer
	base string
	// paths lists what was written, in walk order, to be stamped once in place.
	paths []string
}

func (f *folderCopy) join(rel string) string {
	if rel == "." {
		return f.base
	}
	return f.base + "/" + rel
}

func (f *folderCopy) mkdir(rel string) error {
	if f == nil {
		return nil
	}
	if err := f.w.Mkdir(f.join(rel)); err != nil {
		return err
	}
	f.paths = append(f.paths, rel)
	return nil
}

// statWriter is a Writer that can also report what it wrote; the real writer is one.
type statWriter interface {
	Lstat(name string) (fs.FileInfo, error)
}

// stamps returns the record of the stamps of everything written, now at folder name; ""
// when the writer cannot stat or an entry cannot be stamped, which only costs the next sync
// a hash.
func (f *folderCopy) stamps(name string) string {
	sw, ok := f.w.(statWriter)
	if !ok {
		return ""
	}
	walk := newStampWalk()
	for _, rel := range f.paths {
		p := name
		if rel != "." {
			p = name + "/" + rel
		}
		info, err := sw.Lstat(p)
		if err != nil {
			return ""
		}
		walk.add(rel, info)
	}
	return walk.result()
}

// put writes skill s of src as folder name of w: into a temporary folder first, which then
// takes the place of name in one step, so a reader sees the old folder or the new one and
// never a part. It returns the hash of what was written and the stamps of its entries,
// taken once it is in place.
func put(w Writer, src fs.FS, s *SyncSkill, name string, warn *[]string) (string, string, error) {
	tmp := tmpPrefix + name + "-" + randSuffix()
	defer w.Track(tmp, true)()
	c := newContentHash()
	fc := &folderCopy{w: w, base: tmp}
	if err := walkSkill(src, s.Dir, c, fc, warn); err != nil {
		_ = w.RemoveAll(tmp)
		return "", "", fmt.Errorf("skill %s: %w", s.Name, err)
	}
	if err := replace(w, tmp, name); err != nil {
		_ = w.RemoveAll(tmp)
		return "", "", fmt.Errorf("skill %s: %w", s.Name, err)
	}
	return c.sum(), fc.stamps(name), nil
}

// putLink installs a symbolic link name pointing at target, replacing what is there in one step.
func putLink(w Writer, target, name string) error {
	tmp := tmpPrefix + name + "-" + randSuffix()
	defer w.Track(tmp, false)()
	if err := w.Symlink(target, tmp); err != nil {
		return err
	}
	if err := replace(w, tmp, name); err != nil {
		_ = w.RemoveAll(tmp)
		return err
	}
	return nil
}

// replace moves tmp to name. An existing name is exchanged with tmp atomically where the
// system can; elsewhere it is renamed aside first, leaving name missing for a moment, and put
// back if tmp cannot take its place. What was at name is then removed.
func replace(w Writer, tmp, name string) error {
	err := w.Rename(tmp, name)
	if err == nil {
		return nil
	}
	switch xerr := w.Exchange(tmp, name); {
	case xerr == nil:
		return w.RemoveAll(tmp)
	case !errors.Is(xerr, errors.ErrUnsupported):
		return xerr
	}
	old := oldPrefix + name + "-" + randSuffix()
	defer w.Track(old, true)()
	if err := w.Rename(name, old); err != nil {
		return err
	}
	if err := w.Rename(tmp, name); err != nil {
		_ = w.Rename(old, name)
		return err
	}
	return w.RemoveAll(old)
}

// remove deletes folder name: renamed aside first, so that it vanishes in one step.
func remove(w Writer, name string) error {
	old := oldPrefix + name + "-" + randSuffix()
	defer w.Track(old, true)()
	if err := w.Rename(name, old); err != nil {
		return err
	}
	return w.RemoveAll(old)
}
