package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/go-multierror"
)

// skillFS returns a MapFS holding a valid skill in each of dirs.
func skillFS(dirs ...string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for _, dir := range dirs {
		name := path.Base(dir)
		fsys[dir+"/SKILL.md"] = &fstest.MapFile{Data: md("body of "+name+"\n", "name: "+name, "description: about "+name)}
	}
	return fsys
}

// dirsOf lists the Dir of every skill.
func dirsOf(skills []*Skill) []string {
	var dirs []string
	for _, s := range skills {
		dirs = append(dirs, s.Dir)
	}
	return dirs
}

func TestDiscoverLayout(t *testing.T) {
	fsys := skillFS(
		"skills/zeta",
		"skills/alpha",
		"skills/review/code-quality",
		"skills/review/deep/security",
		"skills/alpha/examples/nested",
		"skills/.hidden/secret",
		"skills/review/.git/objects",
		"other/outside",
	)
	fsys["skills/README.md"] = &fstest.MapFile{Data: []byte("# Skills")}
	fsys["skills/empty-category/notes.txt"] = &fstest.MapFile{Data: []byte("x")}
	for _, workers := range []int{0, 1, 8} {
		res, err := Discover(fsys, "skills", Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"skills/alpha", "skills/review/code-quality", "skills/review/deep/security", "skills/zeta"}
		if diff := cmp.Diff(want, dirsOf(res.Skills)); diff != "" {
			t.Errorf("workers=%d: skills (-want +got):\n%s", workers, diff)
		}
		if len(res.Problems) != 0 || res.Err() != nil {
			t.Errorf("workers=%d: unexpected problems %v", workers, res.Problems)
		}
	}
}

func TestDiscoverBodies(t *testing.T) {
	fsys := skillFS("skills/alpha")
	for _, fmOnly := range []bool{false, true} {
		res, err := Discover(fsys, "skills", Options{FrontmatterOnly: fmOnly})
		if err != nil {
			t.Fatal(err)
		}
		want := []*Skill{{Name: "alpha", Description: "about alpha", Dir: "skills/alpha", Body: "body of alpha\n"}}
		if fmOnly {
			want[0].Body = ""
		}
		if diff := cmp.Diff(want, res.Skills, cmpSkill); diff != "" {
			t.Errorf("frontmatterOnly=%v (-want +got):\n%s", fmOnly, diff)
		}
	}
}

func TestDiscoverRoots(t *testing.T) {
	fsys := skillFS("skills/alpha", "skills/cat/beta")
	tests := []struct {
		root string
		want []string
	}{
		{root: ".", want: []string{"skills/alpha", "skills/cat/beta"}},
		{root: "skills/cat", want: []string{"skills/cat/beta"}},
		{root: "skills/alpha", want: []string{"skills/alpha"}},
	}
	for _, tt := range tests {
		t.Run(tt.root, func(t *testing.T) {
			res, err := Discover(fsys, tt.root, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, dirsOf(res.Skills)); diff != "" {
				t.Errorf("skills (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDiscoverRootErrors(t *testing.T) {
	fsys := skillFS("skills/alpha")
	tests := []struct {
		root    string
		want    string
		notExit bool
	}{
		{root: "missing", want: `skills folder "missing": open missing: file does not exist`, notExit: true},
		{root: "skills/alpha/SKILL.md", want: `skills folder "skills/alpha/SKILL.md": `},
		{root: "../up", want: `skills folder "../up": not a clean slash-separated path inside the tree; pass it without a leading /, ./ or ..`},
		{root: "/abs", want: `skills folder "/abs": not a clean slash-separated path inside the tree; pass it without a leading /, ./ or ..`},
	}
	for _, tt := range tests {
		t.Run(tt.root, func(t *testing.T) {
			res, err := Discover(fsys, tt.root, Options{})
			if err == nil || res != nil {
				t.Fatalf("Discover(%q) = %v, %v; want an error", tt.root, res, err)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error = %q, want it to start with %q", err, tt.want)
			}
			if tt.notExit && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("error %v does not wrap fs.ErrNotExist", err)
			}
		})
	}
}

func TestDiscoverDepth(t *testing.T) {
	fsys := skillFS("s/one", "s/a/two", "s/a/b/three", "s/a/b/c/four")
	tests := []struct {
		maxDepth int
		want     []string
		probs    []Problem
	}{
		{maxDepth: 0, want: []string{"s/a/b/c/four", "s/one", "s/a/b/three", "s/a/two"}},
		{maxDepth: 2, want: []string{"s/one", "s/a/two"}, probs: []Problem{
			warning("s/a/b/c", 0, "folder is 3 levels below the skills folder, past the search limit of 2; skills in it are not found, so move them up"),
			warning("s/a/b/three", 0, "folder is 3 levels below the skills folder, past the search limit of 2; skills in it are not found, so move them up"),
		}},
		{maxDepth: 1, want: []string{"s/one"}, probs: []Problem{
			warning("s/a/b", 0, "folder is 2 levels below the skills folder, past the search limit of 1; skills in it are not found, so move them up"),
			warning("s/a/two", 0, "folder is 2 levels below the skills folder, past the search limit of 1; skills in it are not found, so move them up"),
		}},
	}
	for _, tt := range tests {
		res, err := Discover(fsys, "s", Options{MaxDepth: tt.maxDepth})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, dirsOf(res.Skills)); diff != "" {
			t.Errorf("MaxDepth %d: skills (-want +got):\n%s", tt.maxDepth, diff)
		}
		if diff := cmp.Diff(tt.probs, res.Problems); diff != "" {
			t.Errorf("MaxDepth %d: problems (-want +got):\n%s", tt.maxDepth, diff)
		}
	}
}

func TestDiscoverDefaultDepth(t *testing.T) {
	deep := "s/1/2/3/4/5/six"
	tooDeep := "s/1/2/3/4/5/6/seven"
	res, err := Discover(skillFS(deep, tooDeep), "s", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{deep}, dirsOf(res.Skills)); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
	want := []Problem{warning("s/1/2/3/4/5/6/seven", 0, "folder is 7 levels below the skills folder, past the search limit of 6; skills in it are not found, so move them up")}
	if diff := cmp.Diff(want, res.Problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

func TestDiscoverDuplicates(t *testing.T) {
	fsys := skillFS("skills/b/pdf", "skills/a/pdf", "skills/c/pdf", "skills/other")
	msg := func(first, second string) string {
		return `skill name "pdf" is used by both ` + first + " and " + second + "; names must be unique, so rename one of them"
	}
	t.Run("strict", func(t *testing.T) {
		res, err := Discover(fsys, "skills", Options{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"skills/other", "skills/a/pdf", "skills/b/pdf", "skills/c/pdf"}, dirsOf(res.Skills)); diff != "" {
			t.Errorf("skills (-want +got):\n%s", diff)
		}
		want := []Problem{
			problem("skills/b/pdf/SKILL.md", 2, msg("skills/a/pdf/SKILL.md", "skills/b/pdf/SKILL.md")),
			problem("skills/c/pdf/SKILL.md", 2, msg("skills/a/pdf/SKILL.md", "skills/c/pdf/SKILL.md")),
		}
		if diff := cmp.Diff(want, res.Problems); diff != "" {
			t.Errorf("problems (-want +got):\n%s", diff)
		}
	})
	t.Run("lenient", func(t *testing.T) {
		res, err := Discover(fsys, "skills", Options{Mode: Lenient})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"skills/other", "skills/a/pdf"}, dirsOf(res.Skills)); diff != "" {
			t.Errorf("skills (-want +got):\n%s", diff)
		}
		suffix := " (agents load only skills/a/pdf/SKILL.md)"
		want := []Problem{
			warning("skills/b/pdf/SKILL.md", 2, msg("skills/a/pdf/SKILL.md", "skills/b/pdf/SKILL.md")+suffix),
			warning("skills/c/pdf/SKILL.md", 2, msg("skills/a/pdf/SKILL.md", "skills/c/pdf/SKILL.md")+suffix),
		}
		if diff := cmp.Diff(want, res.Problems); diff != "" {
			t.Errorf("problems (-want +got):\n%s", diff)
		}
		if res.Err() != nil {
			t.Errorf("Err() = %v, want nil for warnings only", res.Err())
		}
	})
}

func TestDiscoverMixedProblems(t *testing.T) {
	fsys := skillFS("skills/good")
	fsys["skills/bad/SKILL.md"] = &fstest.MapFile{Data: md("", "name: bad")}
	fsys["skills/warn/SKILL.md"] = &fstest.MapFile{Data: md("", "name: warn", "description: d", "tags: x")}
	fsys["skills/link"] = &fstest.MapFile{Data: []byte("good"), Mode: fs.ModeSymlink}
	res, err := Discover(fsys, "skills", Options{Mode: Lenient})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"skills/good", "skills/warn"}, dirsOf(res.Skills)); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
	// Folders lists the skill that does not load too, never the link.
	if diff := cmp.Diff([]string{"skills/bad", "skills/good", "skills/warn"}, res.Folders); diff != "" {
		t.Errorf("folders (-want +got):\n%s", diff)
	}
	want := []Problem{
		problem("skills/bad/SKILL.md", 1, "missing required key description; add one that says what the skill does and when to use it"),
		warning("skills/link", 0, "entry is a symbolic link, which is never followed; skills behind it are not found, so put the folder itself here"),
		warning("skills/warn/SKILL.md", 4, `unexpected key "tags"`+unexpectedMsg),
	}
	if diff := cmp.Diff(want, res.Problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	err = res.Err()
	var merr *multierror.Error
	if !errors.As(err, &merr) || len(merr.Errors) != 1 {
		t.Fatalf("Err() = %#v, want a multierror with one error", err)
	}
	var p Problem
	if !errors.As(merr.Errors[0], &p) || p != want[0] {
		t.Errorf("Err() holds %v, want %v", merr.Errors[0], want[0])
	}
	wantText := "1 problem in skills:\n  skills/bad/SKILL.md:1: missing required key description; add one that says what the skill does and when to use it"
	if err.Error() != wantText {
		t.Errorf("Err().Error() = %q, want %q", err.Error(), wantText)
	}
}

// failDirFS fails to list one folder.
type failDirFS struct {
	fstest.MapFS
	bad string
}

func (f failDirFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == f.bad {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrPermission}
	}
	return f.MapFS.ReadDir(name)
}

func TestDiscoverUnreadableFolder(t *testing.T) {
	fsys := failDirFS{MapFS: skillFS("skills/ok", "skills/locked/inner"), bad: "skills/locked"}
	res, err := Discover(fsys, "skills", Options{Mode: Lenient})
	if err != nil {
		t.Fatal(err)
	}
	want := []Problem{problem("skills/locked", 0, "folder cannot be read (readdir skills/locked: permission denied); skills in it are not found, so check that it is readable")}
	if diff := cmp.Diff(want, res.Problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"skills/ok"}, dirsOf(res.Skills)); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
}

// TestDiscoverSymlinksOnDisk runs Discover on a real folder through
// os.Root, with links that point out of the root and back into it.
func TestDiscoverSymlinksOnDisk(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	mustWrite(t, filepath.Join(outside, "secret", "SKILL.md"), md("", "name: secret", "description: outside the root"))
	mustWrite(t, filepath.Join(dir, "skills", "ok", "SKILL.md"), md("", "name: ok", "description: d"))
	mustSymlink(t, filepath.Join(outside, "secret"), filepath.Join(dir, "skills", "secret"))
	mustSymlink(t, outside, filepath.Join(dir, "skills", "cat", "escape"))
	mustSymlink(t, filepath.Join(outside, "secret", "SKILL.md"), filepath.Join(dir, "skills", "stolen", "SKILL.md"))
	mustSymlink(t, "../ok", filepath.Join(dir, "skills", "alias"))
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	res, err := Discover(root.FS(), "skills", Options{Mode: Lenient})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"skills/ok"}, dirsOf(res.Skills)); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
	linkMsg := "entry is a symbolic link, which is never followed; skills behind it are not found, so put the folder itself here"
	want := []Problem{
		warning("skills/alias", 0, linkMsg),
		warning("skills/cat/escape", 0, linkMsg),
		warning("skills/secret", 0, linkMsg),
		problem("skills/stolen/SKILL.md", 0, "file is a symbolic link, which is never followed; replace it with a regular file"),
	}
	if diff := cmp.Diff(want, res.Problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

func TestDiscoverManySkillsOnDisk(t *testing.T) {
	dir := t.TempDir()
	writeBenchTree(t, dir, 300)
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, opts := range []Options{{Mode: Lenient, FrontmatterOnly: true}, {Workers: 3}} {
		res, err := Discover(root.FS(), "skills", opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Skills) != 300 || len(res.Problems) != 0 {
			t.Fatalf("found %d skills and problems %v, want 300 and none", len(res.Skills), res.Problems)
		}
		for i, s := range res.Skills {
			if want := fmt.Sprintf("skill-%05d", i); s.Name != want {
				t.Fatalf("skill %d is %q, want %q", i, s.Name, want)
			}
		}
	}
}

func TestDiscoverEmptyRoot(t *testing.T) {
	res, err := Discover(fstest.MapFS{}, ".", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Skills) != 0 || len(res.Problems) != 0 || res.Err() != nil {
		t.Errorf("Discover on an empty tree = %+v, want nothing", res)
	}
}

// failLstatFS fails to Lstat one file.
type failLstatFS struct {
	fstest.MapFS
	bad string
}

func (f failLstatFS) Lstat(name string) (fs.FileInfo, error) {
	if name == f.bad {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: fs.ErrPermission}
	}
	return f.MapFS.Lstat(name)
}

func TestDiscoverUnreadableSkill(t *testing.T) {
	fsys := failLstatFS{MapFS: skillFS("skills/ok", "skills/locked"), bad: "skills/locked/SKILL.md"}
	res, err := Discover(fsys, "skills", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Problem{problem("skills/locked/SKILL.md", 0, "file cannot be read (lstat skills/locked/SKILL.md: permission denied); check that it is a readable regular file")}
	if diff := cmp.Diff(want, res.Problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}
