package catalog

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"testing/fstest"
)

// countFS counts the bytes read from the files it opens.
type countFS struct {
	fs.FS
	read atomic.Int64
}

func (c *countFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil {
		return nil, err
	}
	return &countFile{File: f, n: &c.read}, nil
}

func (c *countFS) Lstat(name string) (fs.FileInfo, error) {
	return fs.Lstat(c.FS, name)
}

func (c *countFS) ReadLink(name string) (string, error) {
	return fs.ReadLink(c.FS, name)
}

func (c *countFS) ReadDir(name string) ([]fs.DirEntry, error) {
	return fs.ReadDir(c.FS, name)
}

type countFile struct {
	fs.File
	n *atomic.Int64
}

func (f *countFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	f.n.Add(int64(n))
	return n, err
}

func TestLoad(t *testing.T) {
	good := md("# Body\n", "name: pdf-tools", "description: d")
	fsys := fstest.MapFS{
		"skills/pdf-tools/SKILL.md":  {Data: good},
		"skills/linked/SKILL.md":     {Data: []byte("../pdf-tools/SKILL.md"), Mode: fs.ModeSymlink},
		"skills/folder/SKILL.md/x":   {Data: []byte("x")},
		"skills/empty/.keep":         {},
		"skills/device/SKILL.md":     {Mode: fs.ModeDevice},
		"skills/pdf-tools/README.md": {Data: []byte("readme")},
	}
	tests := []struct {
		name      string
		dir       string
		fmOnly    bool
		want      *Skill
		wantProbs []Problem
	}{
		{name: "whole file", dir: "skills/pdf-tools",
			want: &Skill{Name: "pdf-tools", Description: "d", Dir: "skills/pdf-tools", Body: "# Body\n"}},
		{name: "frontmatter only", dir: "skills/pdf-tools", fmOnly: true,
			want: &Skill{Name: "pdf-tools", Description: "d", Dir: "skills/pdf-tools"}},
		{name: "symbolic link", dir: "skills/linked", wantProbs: []Problem{
			problem("skills/linked/SKILL.md", 0, "file is a symbolic link, which is never followed; replace it with a regular file")}},
		{name: "folder named SKILL.md", dir: "skills/folder", wantProbs: []Problem{
			problem("skills/folder/SKILL.md", 0, "file is not a regular file (mode d---------); replace it with a regular file")}},
		{name: "device", dir: "skills/device", wantProbs: []Problem{
			problem("skills/device/SKILL.md", 0, "file is not a regular file (mode D---------); replace it with a regular file")}},
		{name: "missing SKILL.md", dir: "skills/empty", wantProbs: []Problem{
			problem("skills/empty", 0, "folder has no SKILL.md; add one with name and description frontmatter")}},
		{name: "missing folder", dir: "skills/none", wantProbs: []Problem{
			problem("skills/none", 0, "folder has no SKILL.md; add one with name and description frontmatter")}},
		{name: "path escaping the tree", dir: "../etc", wantProbs: []Problem{
			problem("../etc", 0, "folder path is not a clean slash-separated path inside the tree; pass it without a leading /, ./ or ..")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, problems := Load(fsys, tt.dir, Lenient, tt.fmOnly)
			checkParse(t, s, problems, tt.want, tt.wantProbs)
		})
	}
}

func TestLoadHugeFileIsNotRead(t *testing.T) {
	huge := append(md("", "name: big", "description: d"), bytes.Repeat([]byte("x"), 2<<20)...)
	for _, fmOnly := range []bool{false, true} {
		fsys := &countFS{FS: fstest.MapFS{"big/SKILL.md": {Data: huge}}}
		s, problems := Load(fsys, "big", Lenient, fmOnly)
		want := []Problem{problem("big/SKILL.md", 0, "file is 2097185 bytes, over the 1048576-byte (1 MiB) limit; move detail into files under references/")}
		checkParse(t, s, problems, nil, want)
		if n := fsys.read.Load(); n != 0 {
			t.Errorf("frontmatterOnly=%v: read %d bytes of an over-sized file, want 0", fmOnly, n)
		}
	}
}

// growingFS reports a small size for a file that is really huge, like a
// file that grows after it was examined.
type growingFS struct{ fstest.MapFS }

// smallFile is an open file whose Stat reports a small size.
type smallFile struct{ fs.File }

func (f smallFile) Stat() (fs.FileInfo, error) {
	info, err := f.File.Stat()
	if err != nil {
		return nil, err
	}
	return smallInfo{info}, nil
}

func (g growingFS) Open(name string) (fs.File, error) {
	f, err := g.MapFS.Open(name)
	if err != nil {
		return nil, err
	}
	return smallFile{f}, nil
}

type smallInfo struct{ fs.FileInfo }

func (smallInfo) Size() int64 { return 10 }

func (g growingFS) Lstat(name string) (fs.FileInfo, error) {
	info, err := g.MapFS.Lstat(name)
	if err != nil {
		return nil, err
	}
	return smallInfo{info}, nil
}

func TestLoadStaysBoundedWhenSizeLies(t *testing.T) {
	huge := append(md("", "name: big", "description: d"), bytes.Repeat([]byte("x"), 3<<20)...)
	fsys := &countFS{FS: growingFS{fstest.MapFS{"big/SKILL.md": {Data: huge}}}}
	s, problems := Load(fsys, "big", Strict, false)
	want := []Problem{problem("big/SKILL.md", 0, "file is 1048577 bytes, over the 1048576-byte (1 MiB) limit; move detail into files under references/")}
	checkParse(t, s, problems, nil, want)
	if n := fsys.read.Load(); n > MaxSkillFileSize+1 {
		t.Errorf("read %d bytes, more than the limit", n)
	}
}

func TestLoadRealDir(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	mustWrite(t, filepath.Join(outside, "secret", "SKILL.md"), md("", "name: secret", "description: outside"))
	mustWrite(t, filepath.Join(dir, "skills", "ok", "SKILL.md"), md("body", "name: ok", "description: d"))
	mustSymlink(t, filepath.Join(outside, "secret", "SKILL.md"), filepath.Join(dir, "skills", "link-out", "SKILL.md"))
	mustSymlink(t, "../ok/SKILL.md", filepath.Join(dir, "skills", "link-in", "SKILL.md"))
	mustWrite(t, filepath.Join(dir, "skills", "huge", "SKILL.md"), bytes.Repeat([]byte("y"), MaxSkillFileSize+1))
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	fsys := root.FS()
	tests := []struct {
		dir   string
		want  *Skill
		probs []Problem
	}{
		{dir: "skills/ok", want: &Skill{Name: "ok", Description: "d", Dir: "skills/ok", Body: "body"}},
		{dir: "skills/link-out", probs: []Problem{problem("skills/link-out/SKILL.md", 0, "file is a symbolic link, which is never followed; replace it with a regular file")}},
		{dir: "skills/link-in", probs: []Problem{problem("skills/link-in/SKILL.md", 0, "file is a symbolic link, which is never followed; replace it with a regular file")}},
		{dir: "skills/huge", probs: []Problem{problem("skills/huge/SKILL.md", 0, "file is 1048577 bytes, over the 1048576-byte (1 MiB) limit; move detail into files under references/")}},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			s, problems := Load(fsys, tt.dir, Strict, false)
			checkParse(t, s, problems, tt.want, tt.probs)
		})
	}
}

func mustSymlink(tb testing.TB, target, link string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		tb.Fatal(err)
	}
}

// stallReader never makes progress.
type stallReader struct{}

func (stallReader) Read([]byte) (int, error) { return 0, nil }

func TestReadGivesUpOnStalledReader(t *testing.T) {
	if _, err := readBounded(stallReader{}, nil); err != io.ErrNoProgress {
		t.Errorf("readBounded error = %v, want io.ErrNoProgress", err)
	}
	if _, err := readFrontmatter(stallReader{}, nil); err != io.ErrNoProgress {
		t.Errorf("readFrontmatter error = %v, want io.ErrNoProgress", err)
	}
}
