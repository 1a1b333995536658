package targetdir

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"

	"github.com/skillgit/skillgit/internal/filenames"
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
	return w.writeFile(rel, io.TeeReader(f, c.h), perm)
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
	return w.symlink(target, rel)
}

// folderCopy is a folder being written through a Writer, or, when fast is set, straight
// into the real target folder by a fastFolder that also takes its stamps.
type folderCopy struct {
	w    Writer
	base string
	fast *fastFolder
}

func (f *folderCopy) join(rel string) string {
	if rel == "." {
		return f.base
	}
	return f.base + "/" + rel
}

func (f *folderCopy) mkdir(rel string) error {
	switch {
	case f == nil:
		return nil
	case f.fast != nil:
		return f.fast.mkdir(rel)
	}
	return f.w.Mkdir(f.join(rel))
}

func (f *folderCopy) writeFile(rel string, r io.Reader, perm fs.FileMode) error {
	if f.fast != nil {
		return f.fast.writeFile(rel, r, perm)
	}
	return f.w.WriteFile(f.join(rel), r, perm)
}

func (f *folderCopy) symlink(target, rel string) error {
	if f.fast != nil {
		return f.fast.symlink(target, rel)
	}
	return f.w.Symlink(target, f.join(rel))
}

// put writes skill s of src as folder name of w: into a temporary folder first, which then
// takes the place of name in one step, so a reader sees the old folder or the new one and
// never a part. It returns the hash of what was written and, when fast is set, the record
// of its stamps, taken once it is in place; fast writes the temporary folder (see
// fastFolder), and w still moves it.
func put(w Writer, fast *stampChecker, src fs.FS, s *Skill, name string, warn *[]string) (string, string, error) {
	tmp := filenames.SkillTempPrefix + name + "-" + randSuffix()
	defer w.Track(tmp, true)()
	c := newContentHash()
	fc := &folderCopy{w: w, base: tmp}
	if fast != nil {
		fc.fast = fast.newFolder(tmp)
	}
	if fc.fast != nil {
		defer fc.fast.close()
	}
	err := walkSkill(src, s.Dir, c, fc, warn)
	if err == nil && fc.fast != nil {
		err = fc.fast.written()
	}
	if err != nil {
		_ = w.RemoveAll(tmp)
		return "", "", fmt.Errorf("skill %s: %w", s.Name, err)
	}
	if err := replace(w, tmp, name); err != nil {
		_ = w.RemoveAll(tmp)
		return "", "", fmt.Errorf("skill %s: %w", s.Name, err)
	}
	var stat string
	if fc.fast != nil {
		stat = fc.fast.placed()
	}
	return c.sum(), stat, nil
}

// putLink installs a symbolic link name pointing at target, replacing what is there in one step.
func putLink(w Writer, target, name string) error {
	tmp := filenames.SkillTempPrefix + name + "-" + randSuffix()
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
	old := filenames.SkillOldPrefix + name + "-" + randSuffix()
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
	old := filenames.SkillOldPrefix + name + "-" + randSuffix()
	defer w.Track(old, true)()
	if err := w.Rename(name, old); err != nil {
		return err
	}
	return w.RemoveAll(old)
}
