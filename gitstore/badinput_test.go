package gitstore

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

func TestWriteTreeRejectsHostileNames(t *testing.T) {
	r := OpenMemory()
	blob := mustBlob(t, r, "x")
	bad := []string{"", ".", "..", ".git", ".GIT", ".Git ", ".git.", ".git...", "git~1", "GIT~1",
		".g\u200cit", "\ufeff.git", ".git::$INDEX_ALLOCATION", "a/b", "/", `a\b`, "a\x00b"}
	for _, name := range bad {
		t.Run(name, func(t *testing.T) {
			if h, err := r.Writes().WriteTree([]TreeEntry{file(name, blob)}); err == nil {
				t.Errorf("WriteTree(%q) = %s, want an error", name, h)
			}
		})
	}
	for _, name := range []string{".gitignore", ".github", "git", "a.git", "..x", "x..", "git~2", "SKILL.md"} {
		if _, err := r.Writes().WriteTree([]TreeEntry{file(name, blob)}); err != nil {
			t.Errorf("WriteTree(%q) = %v, want it accepted", name, err)
		}
	}
}

func TestReadBlobLimit(t *testing.T) {
	r := OpenMemory()
	h := mustBlob(t, r, strings.Repeat("x", 100))
	if _, err := r.Objects().ReadBlob(h, 100); err != nil {
		t.Errorf("ReadBlob at the limit: %v", err)
	}
	_, err := r.Objects().ReadBlob(h, 99)
	if err == nil || !strings.Contains(err.Error(), "100 bytes") {
		t.Errorf("ReadBlob over the limit = %v, want an error naming the size", err)
	}
	if _, err := r.Objects().ReadBlob(plumbing.NewHash("1234567812345678123456781234567812345678"), 10); !errors.Is(err, plumbing.ErrObjectNotFound) {
		t.Errorf("ReadBlob of a missing blob = %v", err)
	}
	tree := mustTree(t, r, file("a", h))
	if _, err := r.Objects().ReadBlob(tree, 1000); err == nil {
		t.Error("ReadBlob read a tree")
	}
}

// rawTree stores tree content without any of WriteTree's checks, the way
// a hostile remote could.
func rawTree(t *testing.T, r *Repo, entries ...TreeEntry) Hash {
	t.Helper()
	h, err := r.Writes().writeObject(plumbing.TreeObject, encodeTree(entries))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestTreeFSRefusesHostileTrees(t *testing.T) {
	r := OpenMemory()
	blob := mustBlob(t, r, "[core]\n\tfsmonitor = evil\n")
	dotGit := rawTree(t, r, file("config", blob))
	root := rawTree(t, r, dir(".git", dotGit), file("ok", blob))
	fsys := r.Objects().TreeFS(root)
	if _, err := fs.ReadDir(fsys, "."); err == nil || !strings.Contains(err.Error(), ".git") {
		t.Errorf("ReadDir of a tree holding .git = %v, want an error naming it", err)
	}
	if _, err := fs.ReadFile(fsys, ".git/config"); err == nil {
		t.Error("read .git/config out of a hostile tree")
	}
	if b, err := fs.ReadFile(fsys, "ok"); err != nil || len(b) == 0 {
		t.Errorf("a sound sibling is unreadable: %v", err)
	}
	gitlink := rawTree(t, r, TreeEntry{Name: "sub", Mode: filemode.Submodule, Hash: blob})
	if _, err := r.Objects().TreeFS(gitlink).Open("sub"); err == nil || !strings.Contains(err.Error(), "submodule") {
		t.Errorf("Open of a gitlink = %v", err)
	}
	if fi, err := fs.Stat(r.Objects().TreeFS(gitlink), "sub"); err != nil || fi.Mode()&fs.ModeIrregular == 0 || fi.IsDir() {
		t.Errorf("Stat of a gitlink = %v, %v; want an irregular entry", fi, err)
	}
}

func TestReadTreeRejectsMalformedObjects(t *testing.T) {
	r := OpenMemory()
	h := mustBlob(t, r, "x")
	valid := encodeTree([]TreeEntry{file("a", h), file("b", h)})
	tests := map[string][]byte{
		"truncated id":  valid[:len(valid)-3],
		"no space":      []byte("100644"),
		"bad mode":      append([]byte("10x644 a\x00"), h[:]...),
		"empty name":    append([]byte("100644 \x00"), h[:]...),
		"dot dot":       append([]byte("40000 ..\x00"), h[:]...),
		"out of order":  encodeTree([]TreeEntry{file("b", h), file("a", h)}),
		"duplicate":     encodeTree([]TreeEntry{file("a", h), file("a", h)}),
		"no terminator": []byte("100644 abc"),
	}
	for name, content := range tests {
		t.Run(name, func(t *testing.T) {
			id, err := r.Writes().writeObject(plumbing.TreeObject, content)
			if err != nil {
				t.Fatal(err)
			}
			if entries, err := r.Objects().ReadTree(id); err == nil {
				t.Errorf("ReadTree = %v, want an error", entries)
			}
		})
	}
}

// hugeFile claims to be larger than WriteDir accepts, or lies and streams
// more than it claims.
type hugeFS struct{ claimed int64 }

type hugeFile struct{ size int64 }

func (h hugeFS) Open(name string) (fs.File, error) { return hugeFile{h.claimed}, nil }

func (h hugeFS) ReadDir(name string) ([]fs.DirEntry, error) {
	return []fs.DirEntry{fs.FileInfoToDirEntry(hugeFile{h.claimed})}, nil
}
func (f hugeFile) Stat() (fs.FileInfo, error) { return f, nil }
func (f hugeFile) Read(p []byte) (int, error) { clear(p); return len(p), nil }
func (f hugeFile) Close() error               { return nil }
func (f hugeFile) Name() string               { return "big.bin" }
func (f hugeFile) Size() int64                { return f.size }
func (f hugeFile) Mode() fs.FileMode          { return 0o644 }
func (f hugeFile) ModTime() time.Time         { return time.Time{} }
func (f hugeFile) IsDir() bool                { return false }
func (f hugeFile) Sys() any                   { return nil }

// linkBlindFS hides MapFS's ReadLink, like a file system that cannot
// read links.
type linkBlindFS struct{ m fstest.MapFS }

func (l linkBlindFS) Open(name string) (fs.File, error) { return l.m.Open(name) }

func TestWriteDirRefusesBadFolders(t *testing.T) {
	deep := fstest.MapFS{}
	deep[strings.Repeat("d/", maxDepth+2)+"f"] = &fstest.MapFile{Data: []byte("x")}
	withLink := fstest.MapFS{"skill/link": {Data: []byte("../../etc/passwd"), Mode: fs.ModeSymlink}}
	tests := map[string]struct {
		fsys fs.FS
		want string
	}{
		"file too large":        {hugeFS{claimed: MaxFileSize + 1}, "big.bin"},
		"nested too deep":       {deep, "nested deeper"},
		"link without ReadLink": {linkBlindFS{withLink}, "skill/link"},
		"named pipe":            {fstest.MapFS{"skill/fifo": {Mode: fs.ModeNamedPipe}}, "skill/fifo"},
		"dot git folder":        {fstest.MapFS{"skill/.git/config": {Data: []byte("x")}}, "skill/.git"},
		"empty link":            {fstest.MapFS{"skill/l": {Mode: fs.ModeSymlink}}, "skill/l"},
	}
	r := OpenMemory()
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			h, err := r.Writes().WriteDir(tt.fsys, ".")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("WriteDir = %s, %v; want an error naming %q", h, err, tt.want)
			}
		})
	}
	t.Run("file larger than it claims", func(t *testing.T) {
		w := &dirWriter{r: r.Writes(), fsys: hugeFS{claimed: 10}, limit: 10, maxFile: 1 << 10}
		if _, err := w.tree(".", 0); err == nil || !strings.Contains(err.Error(), "big.bin") {
			t.Errorf("tree = %v, want the size limit naming big.bin", err)
		}
	})
	t.Run("too many entries", func(t *testing.T) {
		many := fstest.MapFS{}
		for _, n := range []string{"a", "b", "c", "d"} {
			many["skill/"+n] = &fstest.MapFile{Data: []byte(n)}
		}
		w := &dirWriter{r: r.Writes(), fsys: many, limit: 3, maxFile: MaxFileSize}
		if _, err := w.tree(".", 0); err == nil || !strings.Contains(err.Error(), "more than 3") {
			t.Errorf("tree = %v, want the entry limit", err)
		}
	})
	if _, err := r.Writes().WriteDir(fstest.MapFS{}, "../x"); err == nil {
		t.Error("WriteDir accepted ../x")
	}
}

func TestWriteDirSnapshot(t *testing.T) {
	r := OpenMemory()
	fsys := fstest.MapFS{
		"skill/SKILL.md":          {Data: []byte("---\nname: skill\n---\n")},
		"skill/scripts/run.sh":    {Data: []byte("#!/bin/sh\n"), Mode: 0o750},
		"skill/link.md":           {Data: []byte("SKILL.md"), Mode: fs.ModeSymlink},
		"skill/empty":             {Mode: fs.ModeDir | 0o755},
		"skill/refs/a-b.md":       {Data: []byte("a")},
		"skill/refs/a/inner.md":   {Data: []byte("b")},
		"skill/refs/a.md":         {Data: []byte("c")},
		"outside/not-included.md": {Data: []byte("no")},
	}
	h, err := r.Writes().WriteDir(fsys, "skill")
	if err != nil {
		t.Fatal(err)
	}
	got := flatten(t, r, h)
	want := []string{
		"SKILL.md 0100644 " + shortID(t, "---\nname: skill\n---\n"),
		"link.md 0120000 " + shortID(t, "SKILL.md"),
		"refs/a-b.md 0100644 " + shortID(t, "a"),
		"refs/a.md 0100644 " + shortID(t, "c"),
		"refs/a/inner.md 0100644 " + shortID(t, "b"),
		"scripts/run.sh 0100755 " + shortID(t, "#!/bin/sh\n"),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("WriteDir tree:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if err := fstest.TestFS(r.Objects().TreeFS(h), "SKILL.md", "scripts/run.sh", "link.md", "refs/a/inner.md"); err != nil {
		t.Error(err)
	}
	empty, err := r.Writes().WriteDir(fsys, "skill/empty")
	if err != nil || empty != emptyTree {
		t.Errorf("WriteDir of an empty folder = %s, %v; want the empty tree", empty, err)
	}
	for _, dir := range []string{"skill", "skill/refs", "skill/empty"} {
		stored, _ := r.Writes().WriteDir(fsys, dir)
		if hashed, err := HashDir(fsys, dir); err != nil || hashed != stored {
			t.Errorf("HashDir(%s) = %s, %v; WriteDir stored %s", dir, hashed, err, stored)
		}
	}
	if _, err := HashDir(fsys, "../x"); err == nil {
		t.Error("HashDir accepted ../x")
	}
}

func shortID(t *testing.T, content string) string {
	t.Helper()
	return plumbing.ComputeHash(plumbing.BlobObject, []byte(content)).String()[:7]
}

func FuzzDecodeTree(f *testing.F) {
	h := plumbing.ComputeHash(plumbing.BlobObject, []byte("x"))
	f.Add(encodeTree([]TreeEntry{file("a", h), dir("b", h), {Name: "l", Mode: filemode.Symlink, Hash: h}}))
	f.Add([]byte("100644 a\x00short"))
	f.Add([]byte("40000 \x00"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, b []byte) {
		entries, err := decodeTree(ZeroHash, b)
		if err != nil {
			return
		}
		if got := encodeTree(entries); string(got) != string(b) && !hasLeadingZeroMode(b) {
			t.Fatalf("decode then encode changed the tree:\n%q\n%q", b, got)
		}
	})
}

// hasLeadingZeroMode reports a mode such as "0100644", which git reads but
// never writes, so re-encoding normalizes it.
func hasLeadingZeroMode(b []byte) bool {
	for pos := 0; pos < len(b); {
		if b[pos] == '0' {
			return true
		}
		_, next, err := decodeTreeEntry(string(b), pos)
		if err != nil {
			return false
		}
		pos = next
	}
	return false
}

func FuzzCheckRefName(f *testing.F) {
	for _, s := range []string{"refs/heads/main", "refs/heads/a..b", "refs/heads/x.lock", "refs/heads/@{x}", "refs/tags/v1.0", "refs/heads/.hidden", "refs/heads/a/", "refs/heads/ü"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if CheckRefName(name) != nil {
			return
		}
		if !strings.HasPrefix(name, "refs/") || strings.Contains(name, "..") || strings.Contains(name, "//") ||
			strings.HasSuffix(name, ".lock") || strings.ContainsAny(name, " ~^:?*[\\\x00\x7f") {
			t.Fatalf("CheckRefName accepted %q", name)
		}
	})
}

func FuzzIndexExtensions(f *testing.F) {
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x00" + strings.Repeat("\x00", 20)))
	f.Add([]byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x01" + strings.Repeat("\x01", 80)))
	f.Fuzz(func(t *testing.T, b []byte) {
		indexExtensions(b)
	})
}

func TestWriteDirIOErrors(t *testing.T) {
	r := OpenMemory()
	if _, err := r.Writes().WriteDir(errFS{}, "."); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("WriteDir over a failing file system = %v", err)
	}
}

type errFS struct{}

func (errFS) Open(string) (fs.File, error) { return nil, errors.New("boom") }
