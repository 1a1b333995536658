package catalog

import (
	"errors"
	"io"
	"io/fs"
)

// Load reads the SKILL.md in folder dir of fsys and parses it, reading only
// the frontmatter when frontmatterOnly is set. The file is examined with
// Lstat first: a SKILL.md that is a symbolic link or not a regular file is
// reported and never followed. A missing SKILL.md is a problem about dir.
func Load(fsys fs.FS, dir string, mode Mode, frontmatterOnly bool) (*Skill, []Problem) {
	var ld loader
	c := newChecker(dir, mode)
	if !fs.ValidPath(dir) {
		c.reportAt(dir, fatal, 0, "folder path is not a clean slash-separated path inside the tree; pass it without a leading /, ./ or ..")
		return c.result(nil)
	}
	info, err := fs.Lstat(fsys, c.file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		c.reportAt(dir, fatal, 0, "folder has no %s; add one with name and description frontmatter", FileName)
		return c.result(nil)
	case err != nil:
		c.unreadable(err)
		return c.result(nil)
	}
	return c.result(ld.load(c, fsys, info, frontmatterOnly))
}

// loader reads SKILL.md files into a buffer it reuses from one file to the
// next, parses plain frontmatter in reused memory too, and shares equal
// metadata maps between the skills it reads.
type loader struct {
	buf   []byte
	plain plainScratch
	meta  metaInterner
}

// load reads and parses c's SKILL.md, whose Lstat result is info. It opens
// only a regular file within the size limit, and the reads stay bounded
// even if the file changes in between. The size comes from the open file
// rather than from info: in a packed git tree, looking a size up costs
// about as much as reading the file, which the open file does only once.
func (ld *loader) load(c *checker, fsys fs.FS, info fs.FileInfo, frontmatterOnly bool) *Skill {
	if !c.regularFile(info.Mode().Type()) {
		return nil
	}
	f, err := fsys.Open(c.file)
	if err != nil {
		c.unreadable(err)
		return nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		c.unreadable(err)
		return nil
	}
	if st.Size() > MaxSkillFileSize {
		c.tooBig(st.Size())
		return nil
	}
	return ld.read(c, f, frontmatterOnly)
}

// read reads and parses the open SKILL.md.
func (ld *loader) read(c *checker, r io.Reader, frontmatterOnly bool) *Skill {
	var data []byte
	var err error
	if frontmatterOnly {
		data, err = readFrontmatter(r, ld.buf)
	} else {
		data, err = readBounded(r, ld.buf)
	}
	ld.buf = data[:0]
	switch {
	case err != nil:
		c.unreadable(err)
		return nil
	case len(data) > MaxSkillFileSize:
		c.tooBig(int64(len(data)))
		return nil
	}
	c.meta = &ld.meta
	return c.parse(data, !frontmatterOnly, &ld.plain)
}

// regularFile reports whether typ is a regular file, reporting it otherwise.
func (c *checker) regularFile(typ fs.FileMode) bool {
	switch {
	case typ&fs.ModeSymlink != 0:
		c.report(fatal, 0, "file is a symbolic link, which is never followed; replace it with a regular file")
		return false
	case !typ.IsRegular():
		c.report(fatal, 0, "file is not a regular file (mode %v); replace it with a regular file", typ)
		return false
	}
	return true
}

// readBounded reads r to its end into buf, but never more than
// MaxSkillFileSize+1 bytes, so a caller can tell an over-long file.
func readBounded(r io.Reader, buf []byte) ([]byte, error) {
	data := buf[:0]
	for stalls := 0; stalls < 100 && len(data) <= MaxSkillFileSize; {
		if len(data) == cap(data) {
			data = grow(data)
		}
		n, err := r.Read(data[len(data):min(cap(data), MaxSkillFileSize+1)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return data, err
		}
		if n == 0 {
			stalls++
		}
	}
	if len(data) > MaxSkillFileSize {
		return data, nil
	}
	return data, io.ErrNoProgress
}
