package audit

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode/utf16"
)

// treeScan is what scanning one version of a skill produced.
type treeScan struct {
	hits    []hit
	files   int
	bytes   int64
	entries []treeEntry
	paths   map[string]bool // every file and folder
	front   *frontMatter    // SKILL.md frontmatter, nil when unreadable
	domains map[string]hit  // first link to each outbound host
	runs    map[string]bool // scripts and binaries, by path
	execs   map[string]bool // files with an executable bit, by path
	// runLines are lines of text that tell the agent to extract an
	// archive and run something, to judge the archives shipped.
	runLines []string
	// mayArchive reports a file whose name does not say it is text, an
	// image or a PDF: only then can the skill hold an archive to judge.
	mayArchive bool
	// sums holds fileSum of files read whole that findings about the whole file name.
	sums map[string]string
	// code is the Python and JavaScript of the skill, analysed as one program once every
	// file is read; codeBytes counts its bytes. texts are the skill's prose and scripts, by
	// path, where a file saved by that code may be run.
	code      []codeUnit
	codeBytes int
	texts     map[string][]byte
	dumps     []string // names of files its shell code writes secrets into
}

type treeEntry struct {
	path string
	mode fs.FileMode
	size int64       // -1 until known: asking info for it may cost a read
	info fs.FileInfo // nil when the entry could not be described
}

// sizeOf returns the entry's size, asking for it at most once.
func (e *treeEntry) sizeOf() int64 {
	if e.size < 0 {
		e.size = e.info.Size()
	}
	return e.size
}

func (t *treeScan) exists(p string) bool { return p == "." || t.paths[p] }

func (t *treeScan) add(id, file, msg, content string) *hit {
	h := newHit(rule(id), file, -1, -1, content)
	h.Snippet = visibleString(content)
	if msg != "" {
		h.Message = msg
	}
	t.hits = append(t.hits, h)
	return &t.hits[len(t.hits)-1]
}

// scanTree lists the skill, then reads and scans its files one by one.
func (s *scanner) scanTree(fsys fs.FS) (*treeScan, error) {
	t := &treeScan{paths: map[string]bool{}, domains: map[string]hit{}, runs: map[string]bool{}, execs: map[string]bool{}, texts: map[string][]byte{}}
	if err := t.walk(fsys); err != nil {
		return nil, err
	}
	s.tree = t
	defer func() { s.tree = nil }()
	t.mayArchive = slices.ContainsFunc(t.entries, func(e treeEntry) bool {
		ext := extOf(e.path)
		return !textExt(ext) && !imageExts[ext] && ext != "pdf"
	})
	for i := range t.entries {
		s.scanEntry(fsys, t, &t.entries[i])
	}
	s.codeFlowClosed(t)
	t.escalateArchives()
	if !t.paths["SKILL.md"] {
		t.add("SG-MD-001", ".", "the skill has no SKILL.md; agents do not load a folder without one", "no SKILL.md")
	}
	return t, nil
}

// walk lists the tree, bounded in depth and file count, without
// following symbolic links.
func (t *treeScan) walk(fsys fs.FS) error {
	files, tooMany := 0, false
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			t.add("SG-TREE-008", p, "folder "+p+" could not be read ("+bounded(err.Error(), 120)+"), so it was not audited; fix its permissions and audit again", p)
			return nil
		}
		if p == "." {
			return nil
		}
		t.paths[p] = true
		if d.IsDir() {
			if strings.Count(p, "/") >= maxTreeDepth {
				t.add("SG-TREE-008", p, fmt.Sprintf("folder %s is nested more than %d levels deep and was not audited; flatten the skill", p, maxTreeDepth), p)
				return fs.SkipDir
			}
			return nil
		}
		if files++; files > maxFiles {
			tooMany = true
			return fs.SkipAll
		}
		t.entries = append(t.entries, entryOf(p, d))
		return nil
	})
	if err != nil {
		return err
	}
	if tooMany {
		t.add("SG-TREE-008", ".", fmt.Sprintf("the skill has more than %d files; only the first %d were audited; split it or remove generated files", maxFiles, maxFiles), "file count")
	}
	return nil
}

func entryOf(p string, d fs.DirEntry) treeEntry {
	e := treeEntry{path: p, mode: d.Type()}
	if info, err := d.Info(); err == nil {
		e.mode, e.size, e.info = info.Mode(), -1, info
	}
	return e
}

// scanEntry applies the structure rules to one entry and scans its content.
func (s *scanner) scanEntry(fsys fs.FS, t *treeScan, e *treeEntry) {
	checkName(t, e.path)
	switch {
	case e.mode&fs.ModeSymlink != 0:
		target, _ := fs.ReadLink(fsys, e.path)
		t.add("SG-TREE-001", e.path, symlinkMessage(e.path, target), e.path+" -> "+target)
		return
	case e.mode&fs.ModeIrregular != 0:
		t.add("SG-TREE-002", e.path, "submodule (gitlink) "+e.path+" inside the skill: its content lives in another repository and is not audited; copy the files in instead", e.path)
		return
	case !e.mode.IsRegular():
		t.add("SG-TREE-002", e.path, "special file "+e.path+" ("+e.mode.Type().String()+") inside the skill: only regular files and folders belong in a skill; remove it", e.path)
		return
	}
	t.files++
	if e.mode.Perm()&0o111 != 0 {
		t.execs[e.path] = true
	}
	f, err := openSized(fsys, e)
	if f != nil {
		defer f.Close()
	}
	if e.sizeOf() > maxFileBytes {
		s.largeFile(fsys, t, *e)
		return
	}
	if t.bytes >= maxTotalBytes {
		t.add("SG-TREE-008", e.path, fmt.Sprintf("file %s was not audited: the skill holds more than %d MiB; remove large files", e.path, maxTotalBytes>>20), e.path)
		return
	}
	var c content
	if err == nil {
		c, err = readContent(f, e.path, e.sizeOf())
	}
	if err != nil {
		t.add("SG-TREE-008", e.path, "file "+e.path+" could not be read ("+bounded(err.Error(), 120)+") and was not audited", e.path)
		return
	}
	t.bytes += int64(len(c.data))
	from := len(t.hits)
	if ok := s.scanFileClosed(t, *e, c); ok && !c.truncated {
		t.keepSum(e, c.data, from)
	}
}

// openSized opens an entry's file and learns its size from it when the entry does not know
// it yet: a file system that must read a file to tell its size, as one over git objects
// does, then reads it once, not twice. Without an open file, the entry's own description
// gives the size.
func openSized(fsys fs.FS, e *treeEntry) (fs.File, error) {
	f, err := fsys.Open(e.path)
	if err != nil {
		return nil, err
	}
	if e.size < 0 {
		if info, err := f.Stat(); err == nil {
			e.size = info.Size()
		}
	}
	return f, nil
}

// largeFile judges a file too large to read: an inert asset (an image,
// audio, video or data file by its first bytes) is data; anything else
// was not audited.
func (s *scanner) largeFile(fsys fs.FS, t *treeScan, e treeEntry) {
	if f, err := fsys.Open(e.path); err == nil {
		head, _ := io.ReadAll(io.LimitReader(f, sniffBytes))
		f.Close()
		if kind, _ := sniff(head); kind == binImage && inertExts[extOf(e.path)] {
			return
		}
	}
	t.add("SG-TREE-008", e.path, fmt.Sprintf("file %s is larger than %d MiB and was not audited; remove it or keep it outside the skill", e.path, maxFileBytes>>20), e.path)
}

func symlinkMessage(p, target string) string {
	msg := "symbolic link " + p
	switch {
	case target == "":
	case path.IsAbs(target) || strings.HasPrefix(target, "~") || escapes(path.Dir(p), target):
		msg += " points outside the skill (" + bounded(target, 100) + ")"
	default:
		msg += " points to " + bounded(target, 100)
	}
	return msg + ": a link can expose any file of the machine the skill is installed on; replace it with a copy of the file"
}

func escapes(dir, target string) bool {
	j := path.Join(dir, target)
	return j == ".." || strings.HasPrefix(j, "../")
}

const sniffBytes = 8 << 10 // bytes read to tell what a file is

// content is what was read of a file: its bytes, whether the file went on beyond them, and
// what its first bytes say it is.
type content struct {
	data      []byte
	truncated bool
	kind      binType
	name      string // the kind of binary file, when it has one
}

// readContent reads as much of an open file as the audit needs: a text file up to
// maxTextBytes, a PDF or Office document up to maxFileBytes, and only the first bytes of
// anything else. size, the file's size as far as it is known, only saves copies.
func readContent(f fs.File, name string, size int64) (content, error) {
	buf := make([]byte, 0, min(max(size, 0), 2*maxTextBytes)+1)
	head, err := readUpTo(f, buf, sniffBytes)
	if err != nil {
		return content{}, err
	}
	c := content{data: head}
	c.kind, c.name = sniff(head)
	limit := readLimit(name, head, c.kind)
	if len(head) < sniffBytes || limit <= sniffBytes {
		return c, nil
	}
	if c.data, err = readUpTo(f, head, limit-len(head)+1); err != nil {
		return content{}, err
	}
	if len(c.data) > limit {
		c.data, c.truncated = c.data[:limit], true
	}
	return c, nil
}

// readUpTo appends to b what r holds, up to n bytes, as io.ReadAll of io.LimitReader(r, n)
// would return it, in b's spare room when there is enough.
func readUpTo(r io.Reader, b []byte, n int) ([]byte, error) {
	stop := len(b) + n
	for len(b) < stop {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		m, err := r.Read(b[len(b):min(cap(b), stop)])
		b = b[:len(b)+m]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
	return b, nil
}

func readLimit(name string, head []byte, kind binType) int {
	switch {
	case kind == binNone && isUTF16(head):
		return 2 * maxTextBytes
	case kind == binNone:
		return maxTextBytes
	case kind == binPDF, kind == binArchive && officeExt[extOf(name)]:
		return maxFileBytes
	}
	return sniffBytes
}

// decodeUTF16 converts UTF-16 text with a byte order mark to UTF-8.
func decodeUTF16(data []byte) []byte {
	big := data[0] == 0xfe
	data = data[2:]
	u := make([]uint16, len(data)/2)
	for i := range u {
		if big {
			u[i] = uint16(data[2*i])<<8 | uint16(data[2*i+1])
		} else {
			u[i] = uint16(data[2*i+1])<<8 | uint16(data[2*i])
		}
	}
	return []byte(string(utf16.Decode(u)))
}
