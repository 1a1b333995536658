package catalog

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

const badObject = "0123456789abcdef0123456789abcdef01234567"

// objectErr is what a file system backed by git returns for an object it cannot read.
type objectErr struct{ id string }

func (e objectErr) Error() string    { return "blob " + e.id + ": zlib: invalid header" }
func (e objectErr) ObjectID() string { return e.id }

// brokenObjectFS fails every read of path bad with an objectErr, as a git tree does whose
// object is damaged; a folder fails to list, a file opens and then fails to read.
type brokenObjectFS struct {
	fstest.MapFS
	bad string
}

func (f brokenObjectFS) fail(op, name string) error {
	return &fs.PathError{Op: op, Path: name, Err: objectErr{badObject}}
}

func (f brokenObjectFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == f.bad {
		return nil, f.fail("readdir", name)
	}
	return f.MapFS.ReadDir(name)
}

func (f brokenObjectFS) Open(name string) (fs.File, error) {
	file, err := f.MapFS.Open(name)
	if err != nil || name != f.bad {
		return file, err
	}
	return brokenFile{File: file, err: f.fail("read", name)}, nil
}

type brokenFile struct {
	fs.File
	err error
}

func (f brokenFile) Read([]byte) (int, error) { return 0, f.err }

// TestDiscoverUnreadableObject checks that a git object that cannot be read is a problem that
// names the object and `git fsck` and carries its id, unlike a file that is not readable.
func TestDiscoverUnreadableObject(t *testing.T) {
	tests := []struct {
		name, bad, file string
	}{
		{"SKILL.md", "skills/broken/SKILL.md", "skills/broken/SKILL.md"},
		{"category folder", "skills/cat", "skills/cat"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := brokenObjectFS{MapFS: skillFS("skills/ok", "skills/broken", "skills/cat/inner"), bad: tt.bad}
			for _, frontmatterOnly := range []bool{false, true} {
				res, err := Discover(fsys, "skills", Options{Mode: Lenient, FrontmatterOnly: frontmatterOnly})
				if err != nil {
					t.Fatal(err)
				}
				got := res.Unreadable()
				if len(got) != 1 || len(res.Problems) != 1 {
					t.Fatalf("problems = %+v, want one unreadable object", res.Problems)
				}
				p := got[0]
				if diff := cmp.Diff([]string{tt.file, badObject}, []string{p.File, p.Object}); diff != "" {
					t.Errorf("file and object (-want +got):\n%s", diff)
				}
				for _, want := range []string{"git object " + badObject + " cannot be read", "git fsck"} {
					if !strings.Contains(p.Message, want) {
						t.Errorf("message %q lacks %q", p.Message, want)
					}
				}
			}
		})
	}
}

// TestLoadUnreadableObject checks Load, which Update uses, the same way.
func TestLoadUnreadableObject(t *testing.T) {
	fsys := brokenObjectFS{MapFS: skillFS("skills/broken"), bad: "skills/broken/SKILL.md"}
	s, problems := Load(fsys, "skills/broken", Lenient, true)
	if s != nil || len(problems) != 1 || problems[0].Object != badObject {
		t.Fatalf("Load = %v, %+v; want no skill and one unreadable object", s, problems)
	}
	if !errors.As(error(objectErr{badObject}), new(unreadableObject)) {
		t.Fatal("objectErr is not an unreadableObject")
	}
}
