package gitstore

import (
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/google/go-cmp/cmp"
)

// files describes a tree: slash path -> content. A content starting with
// "x:" is an executable file, "l:" a symbolic link.
type files map[string]string

// buildTree writes the tree that files describes.
func buildTree(t testing.TB, r *Repo, fs files) Hash {
	t.Helper()
	root := mustTree(t, r)
	for p, content := range fs {
		mode := filemode.Regular
		switch {
		case strings.HasPrefix(content, "x:"):
			mode = filemode.Executable
		case strings.HasPrefix(content, "l:"):
			mode = filemode.Symlink
		}
		e := &TreeEntry{Mode: mode, Hash: mustBlob(t, r, content)}
		var err error
		if root, err = r.Writes().ReplacePath(root, p, e); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

type mergeCase struct {
	name               string
	base, ours, theirs files
	want               files    // the clean result
	conflicts          []string // or the conflicts
}

var mergeCases = []mergeCase{
	{name: "add/add same", base: files{"a": "1"},
		ours: files{"a": "1", "b": "2"}, theirs: files{"a": "1", "b": "2"},
		want: files{"a": "1", "b": "2"}},
	{name: "add/add different", base: files{"a": "1"},
		ours: files{"a": "1", "b": "2"}, theirs: files{"a": "1", "b": "3"},
		conflicts: []string{"b"}},
	{name: "modify vs untouched", base: files{"a": "1", "b": "1"},
		ours: files{"a": "1", "b": "1"}, theirs: files{"a": "2", "b": "1"},
		want: files{"a": "2", "b": "1"}},
	{name: "both modify differently", base: files{"s/a/SKILL.md": "1"},
		ours: files{"s/a/SKILL.md": "2"}, theirs: files{"s/a/SKILL.md": "3"},
		conflicts: []string{"s/a/SKILL.md"}},
	{name: "both modify alike", base: files{"a": "1"},
		ours: files{"a": "2"}, theirs: files{"a": "2"}, want: files{"a": "2"}},
	{name: "delete vs untouched", base: files{"a": "1", "b": "1"},
		ours: files{"b": "1"}, theirs: files{"a": "1", "b": "1"},
		want: files{"b": "1"}},
	{name: "untouched vs delete", base: files{"a": "1", "b": "1"},
		ours: files{"a": "1", "b": "1"}, theirs: files{"a": "1"},
		want: files{"a": "1"}},
	{name: "delete vs modify", base: files{"a": "1", "b": "1"},
		ours: files{"b": "1"}, theirs: files{"a": "2", "b": "1"},
		conflicts: []string{"a"}},
	{name: "both delete", base: files{"a": "1", "b": "1"},
		ours: files{"b": "1"}, theirs: files{"b": "1"}, want: files{"b": "1"}},
	{name: "nested folders",
		base:   files{"skills/r/x/SKILL.md": "1", "skills/r/x/scripts/run.sh": "x:1", "skills/y/SKILL.md": "1"},
		ours:   files{"skills/r/x/SKILL.md": "2", "skills/r/x/scripts/run.sh": "x:1", "skills/y/SKILL.md": "1"},
		theirs: files{"skills/r/x/SKILL.md": "1", "skills/r/x/scripts/run.sh": "x:2", "skills/y/SKILL.md": "1"},
		want:   files{"skills/r/x/SKILL.md": "2", "skills/r/x/scripts/run.sh": "x:2", "skills/y/SKILL.md": "1"}},
	{name: "sibling folders",
		base:   files{"skills/a/SKILL.md": "a1", "skills/b/SKILL.md": "b1", ".skillgit.yaml": "c"},
		ours:   files{"skills/a/SKILL.md": "a2", "skills/b/SKILL.md": "b1", ".skillgit.yaml": "c"},
		theirs: files{"skills/a/SKILL.md": "a1", "skills/b/SKILL.md": "b2", "skills/c/SKILL.md": "c1", ".skillgit.yaml": "c"},
		want:   files{"skills/a/SKILL.md": "a2", "skills/b/SKILL.md": "b2", "skills/c/SKILL.md": "c1", ".skillgit.yaml": "c"}},
	{name: "new folder added on both sides", base: files{"README": "r"},
		ours:   files{"README": "r", "skills/review/a/SKILL.md": "a"},
		theirs: files{"README": "r", "skills/review/b/SKILL.md": "b"},
		want:   files{"README": "r", "skills/review/a/SKILL.md": "a", "skills/review/b/SKILL.md": "b"}},
	{name: "mode change on one side", base: files{"run.sh": "x", "other": "1"},
		ours: files{"run.sh": "x:x", "other": "1"}, theirs: files{"run.sh": "x", "other": "2"},
		want: files{"run.sh": "x:x", "other": "2"}},
	{name: "mode change vs content change", base: files{"run.sh": "1"},
		ours: files{"run.sh": "x:1"}, theirs: files{"run.sh": "2"},
		conflicts: []string{"run.sh"}},
	{name: "file vs folder added", base: files{"a": "1"},
		ours: files{"a": "1", "x": "file"}, theirs: files{"a": "1", "x/y": "inside"},
		conflicts: []string{"x"}},
	{name: "file vs folder, folder first", base: files{"a": "1"},
		ours: files{"a": "1", "x/y": "inside"}, theirs: files{"a": "1", "x": "file", "x-y": "z"},
		conflicts: []string{"x"}},
	{name: "file replaced by folder vs untouched", base: files{"x": "file", "z": "1"},
		ours: files{"x/y": "inside", "z": "1"}, theirs: files{"x": "file", "z": "2"},
		want: files{"x/y": "inside", "z": "2"}},
	{name: "file replaced by folder vs modify", base: files{"x": "file"},
		ours: files{"x/y": "inside"}, theirs: files{"x": "changed"},
		conflicts: []string{"x"}},
	{name: "emptied subtree removed", base: files{"skills/a/f": "1", "skills/a/g": "2", "keep": "k"},
		ours: files{"skills/a/g": "2", "keep": "k"}, theirs: files{"skills/a/f": "1", "keep": "k"},
		want: files{"keep": "k"}},
	{name: "emptied root", base: files{"a": "1", "b": "2"},
		ours: files{"b": "2"}, theirs: files{"a": "1"}, want: files{}},
	{name: "conflicts sorted", base: files{"b/f": "1", "a": "1", "c": "1"},
		ours: files{"b/f": "2", "a": "2", "c": "2"}, theirs: files{"b/f": "3", "a": "3", "c": "1"},
		conflicts: []string{"a", "b/f"}},
	{name: "empty base", base: files{},
		ours: files{"s/a": "1", "t": "1"}, theirs: files{"s/b": "1", "t": "1"},
		want: files{"s/a": "1", "s/b": "1", "t": "1"}},
	{name: "symbolic link vs file", base: files{"l": "l:target"},
		ours: files{"l": "l:other"}, theirs: files{"l": "l:target"}, want: files{"l": "l:other"}},
}

func TestMergeTreesDisk(t *testing.T)   { testMergeTrees(t, diskRepo(true)) }
func TestMergeTreesMemory(t *testing.T) { testMergeTrees(t, memoryRepo) }

func testMergeTrees(t *testing.T, newRepo newRepoFunc) {
	for _, tc := range mergeCases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			base, ours, theirs := buildTree(t, r, tc.base), buildTree(t, r, tc.ours), buildTree(t, r, tc.theirs)
			got, conflicts, err := r.Writes().MergeTrees(base, ours, theirs)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.conflicts, conflicts); diff != "" {
				t.Fatalf("conflicts (-want +got):\n%s", diff)
			}
			want := ZeroHash
			if tc.conflicts == nil {
				want = buildTree(t, r, tc.want)
			}
			if got != want {
				t.Errorf("merged tree = %s, want %s\ngot:\n%s", got, want, listTree(t, r, got))
			}
		})
	}
}

// listTree returns "mode path" lines for every file below tree.
func listTree(t testing.TB, r *Repo, tree Hash) string {
	t.Helper()
	var b strings.Builder
	var walk func(dir string, h Hash)
	walk = func(dir string, h Hash) {
		entries, err := r.Objects().ReadTree(h)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.isDir() {
				walk(joinPath(dir, e.Name), e.Hash)
				continue
			}
			b.WriteString(e.Mode.String() + " " + joinPath(dir, e.Name) + "\n")
		}
	}
	walk("", tree)
	return b.String()
}

func TestMergeTreesZeroSides(t *testing.T) {
	r := OpenMemory()
	x := buildTree(t, r, files{"a": "1"})
	y := buildTree(t, r, files{"b": "1"})
	tests := []struct {
		name               string
		base, ours, theirs Hash
		want               Hash
	}{
		{"all empty", ZeroHash, ZeroHash, ZeroHash, emptyTree},
		{"only theirs", ZeroHash, ZeroHash, x, x},
		{"only ours", ZeroHash, x, ZeroHash, x},
		{"empty tree id as base", emptyTree, x, emptyTree, x},
		{"both deleted everything", x, ZeroHash, emptyTree, emptyTree},
		{"disjoint additions", ZeroHash, x, y, buildTree(t, r, files{"a": "1", "b": "1"})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, conflicts, err := r.Writes().MergeTrees(tt.base, tt.ours, tt.theirs)
			if err != nil || conflicts != nil || got != tt.want {
				t.Errorf("MergeTrees = %s, %v, %v; want %s", got, conflicts, err, tt.want)
			}
		})
	}
}

func TestMergeTreesMissingTree(t *testing.T) {
	r := OpenMemory()
	x := buildTree(t, r, files{"a": "1"})
	y := buildTree(t, r, files{"a": "2"})
	missing := mustBlob(t, OpenMemory(), "not in r")
	if _, _, err := r.Writes().MergeTrees(missing, x, y); err == nil {
		t.Error("MergeTrees read a base that is not stored")
	}
	blob := mustBlob(t, r, "a blob, not a tree")
	if _, _, err := r.Writes().MergeTrees(x, y, blob); err == nil {
		t.Error("MergeTrees accepted a blob as a tree")
	}
}
