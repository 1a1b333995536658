package gitstore

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/google/go-cmp/cmp"
)

// flatten lists every non-folder entry of a tree as "path mode id".
func flatten(t *testing.T, r *Repo, root Hash) []string {
	t.Helper()
	files, err := r.filesUnderRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func (r *Repo) filesUnderRoot(root Hash) ([]string, error) {
	var out []string
	var walk func(prefix string, h Hash) error
	walk = func(prefix string, h Hash) error {
		entries, err := r.Objects().ReadTree(h)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if e.isDir() {
				if err := walk(prefix+e.Name+"/", e.Hash); err != nil {
					return err
				}
				continue
			}
			out = append(out, prefix+e.Name+" "+e.Mode.String()+" "+e.Hash.String()[:7])
		}
		return nil
	}
	return out, walk("", root)
}

func testReplacePath(t *testing.T, r *Repo) {
	a, b := mustBlob(t, r, "a"), mustBlob(t, r, "b")
	sa, sb := a.String()[:7], b.String()[:7]
	base, err := r.Writes().ReplacePath(ZeroHash, "skills/x/SKILL.md", &TreeEntry{Mode: filemode.Regular, Hash: a})
	if err != nil {
		t.Fatal(err)
	}
	base, err = r.Writes().ReplacePath(base, "skills/y/SKILL.md", &TreeEntry{Mode: filemode.Regular, Hash: a})
	if err != nil {
		t.Fatal(err)
	}
	xTree := mustTree(t, r, file("SKILL.md", b), TreeEntry{Name: "run", Mode: filemode.Executable, Hash: a})
	tests := []struct {
		name string
		path string
		e    *TreeEntry
		want []string
	}{
		{"replace file", "skills/x/SKILL.md", &TreeEntry{Mode: filemode.Regular, Hash: b},
			[]string{"skills/x/SKILL.md 0100644 " + sb, "skills/y/SKILL.md 0100644 " + sa}},
		{"add nested", "skills/z/scripts/run.sh", &TreeEntry{Mode: filemode.Executable, Hash: b},
			[]string{"skills/x/SKILL.md 0100644 " + sa, "skills/y/SKILL.md 0100644 " + sa, "skills/z/scripts/run.sh 0100755 " + sb}},
		{"replace folder", "skills/x", &TreeEntry{Mode: filemode.Dir, Hash: xTree},
			[]string{"skills/x/SKILL.md 0100644 " + sb, "skills/x/run 0100755 " + sa, "skills/y/SKILL.md 0100644 " + sa}},
		{"delete file empties folder", "skills/x/SKILL.md", nil,
			[]string{"skills/y/SKILL.md 0100644 " + sa}},
		{"delete folder", "skills/y", nil,
			[]string{"skills/x/SKILL.md 0100644 " + sa}},
		{"delete missing", "skills/none/SKILL.md", nil,
			[]string{"skills/x/SKILL.md 0100644 " + sa, "skills/y/SKILL.md 0100644 " + sa}},
		{"empty folder entry deletes", "skills/x", &TreeEntry{Mode: filemode.Dir, Hash: emptyTree},
			[]string{"skills/y/SKILL.md 0100644 " + sa}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := r.Writes().ReplacePath(base, tt.path, tt.e)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, flatten(t, r, got)); diff != "" {
				t.Errorf("tree after ReplacePath (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("unchanged siblings keep their ids", func(t *testing.T) {
		got, err := r.Writes().ReplacePath(base, "skills/x/SKILL.md", &TreeEntry{Mode: filemode.Regular, Hash: b})
		if err != nil {
			t.Fatal(err)
		}
		before, _, _ := r.Objects().EntryAt(base, "skills/y")
		after, _, _ := r.Objects().EntryAt(got, "skills/y")
		if before != after {
			t.Errorf("sibling changed: %v -> %v", before, after)
		}
	})
	t.Run("delete everything", func(t *testing.T) {
		got, err := r.Writes().ReplacePath(base, "skills", nil)
		if err != nil || got != emptyTree {
			t.Errorf("ReplacePath = %s, %v; want the empty tree", got, err)
		}
	})
	t.Run("same content is a no-op", func(t *testing.T) {
		got, err := r.Writes().ReplacePath(base, "skills/x/SKILL.md", &TreeEntry{Mode: filemode.Regular, Hash: a})
		if err != nil || got != base {
			t.Errorf("ReplacePath = %s, %v; want %s", got, err, base)
		}
	})
	bad := map[string]struct {
		path string
		e    *TreeEntry
	}{
		"file in the way": {"skills/x/SKILL.md/deeper", &TreeEntry{Mode: filemode.Regular, Hash: a}},
		"dot dot":         {"skills/../x", &TreeEntry{Mode: filemode.Regular, Hash: a}},
		"dot git":         {"skills/.GIT/config", &TreeEntry{Mode: filemode.Regular, Hash: a}},
		"empty path":      {"", &TreeEntry{Mode: filemode.Regular, Hash: a}},
		"bad mode":        {"skills/x/f", &TreeEntry{Mode: 0o100664, Hash: a}},
		"zero id":         {"skills/x/f", &TreeEntry{Mode: filemode.Regular}},
		"absolute":        {"/skills/x", nil},
	}
	for name, tt := range bad {
		t.Run("refuses "+name, func(t *testing.T) {
			if h, err := r.Writes().ReplacePath(base, tt.path, tt.e); err == nil {
				t.Errorf("ReplacePath(%q) = %s, want an error", tt.path, h)
			}
		})
	}
}

func testTreeFS(t *testing.T, r *Repo) {
	md := mustBlob(t, r, "---\nname: pdf\n---\n")
	script := mustBlob(t, r, "#!/bin/sh\necho hi\n")
	target := mustBlob(t, r, "../pdf/SKILL.md")
	scripts := mustTree(t, r, TreeEntry{Name: "run.sh", Mode: filemode.Executable, Hash: script})
	pdf := mustTree(t, r, file("SKILL.md", md), dir("scripts", scripts),
		TreeEntry{Name: "link.md", Mode: filemode.Symlink, Hash: target})
	root := mustTree(t, r, dir("pdf", pdf), file("a-b", md), dir("a", scripts))
	fsys := r.Objects().TreeFS(root)
	if err := fstest.TestFS(fsys, "pdf/SKILL.md", "pdf/scripts/run.sh", "pdf/link.md", "a/run.sh", "a-b"); err != nil {
		t.Fatal(err)
	}
	t.Run("symlinks", func(t *testing.T) {
		rl := fsys.(interface {
			ReadLink(string) (string, error)
		})
		got, err := rl.ReadLink("pdf/link.md")
		if err != nil || got != "../pdf/SKILL.md" {
			t.Errorf("ReadLink = %q, %v", got, err)
		}
		if _, err := fs.ReadFile(fsys, "pdf/link.md"); err == nil || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("reading a link = %v, want a refusal naming the link", err)
		}
	})
	t.Run("modes", func(t *testing.T) {
		info, err := fs.Stat(fsys, "pdf/scripts/run.sh")
		if err != nil || info.Mode().Perm() != 0o755 || info.Size() != int64(len("#!/bin/sh\necho hi\n")) {
			t.Errorf("Stat = %v, %v", info, err)
		}
		if e, ok := info.Sys().(TreeEntry); !ok || e.Hash != script {
			t.Errorf("Sys() = %#v, want the tree entry", info.Sys())
		}
		// The size is looked up lazily by Lstat and taken from the
		// content by an open file's Stat; both must agree.
		want := int64(len("---\nname: pdf\n---\n"))
		if info, err := fs.Lstat(fsys, "pdf/SKILL.md"); err != nil || info.Size() != want {
			t.Errorf("Lstat = %v, %v; want size %d", info, err, want)
		}
		f, err := fsys.Open("pdf/SKILL.md")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if info, err := f.Stat(); err != nil || info.Size() != want {
			t.Errorf("open file Stat = %v, %v; want size %d", info, err, want)
		}
	})
	bad := []string{"../x", "/pdf", "pdf/../a-b", "pdf/link.md/x", "a-b/x", "pdf/none", "pdf//SKILL.md"}
	for _, name := range bad {
		t.Run("refuses "+name, func(t *testing.T) {
			if f, err := fsys.Open(name); err == nil {
				f.Close()
				t.Errorf("Open(%q) succeeded", name)
			}
		})
	}
	if err := fstest.TestFS(r.Objects().TreeFS(ZeroHash)); err != nil {
		t.Errorf("empty tree: %v", err)
	}
}
