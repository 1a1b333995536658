package gitstore

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/google/go-cmp/cmp"
)

// worktreeFixture is a repository made by git, with the tree a skillgit
// update would move it to.
type worktreeFixture struct {
	dir      string
	r        *Repo
	head     Hash
	old, new Hash
}

var fixtureFiles = map[string]string{
	"README":            "outside\n",
	"skills/a/SKILL.md": "a v1\n",
	"skills/a/run.sh":   "#!/bin/sh\n",
	"skills/b/SKILL.md": "b\n",
	"other/x.md":        "x\n",
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(p, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(full, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
}

func newWorktreeFixture(t *testing.T) *worktreeFixture {
	t.Helper()
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q", "-b", "main")
	writeFiles(t, dir, fixtureFiles)
	gitRun(t, dir, "add", ".")
	gitRun(t, dir, "commit", "-q", "-m", "first")
	f := worktreeFixtureAt(t, dir)
	r := f.r
	f.new = f.edit(t, f.old, map[string]*TreeEntry{
		"skills/a/SKILL.md": {Mode: filemode.Regular, Hash: mustBlob(t, r, "a v2\n")},
		"skills/a/run.sh":   nil,
		"skills/b":          nil,
		"skills/c/SKILL.md": {Mode: filemode.Regular, Hash: mustBlob(t, r, "c\n")},
		"skills/c/tool.sh":  {Mode: filemode.Executable, Hash: mustBlob(t, r, "#!/bin/sh\nexit 0\n")},
		"skills/c/link.md":  {Mode: filemode.Symlink, Hash: mustBlob(t, r, "SKILL.md")},
	})
	return f
}

// worktreeFixtureAt opens the checkout in dir, its old tree that of HEAD.
func worktreeFixtureAt(t *testing.T, dir string) *worktreeFixture {
	t.Helper()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	f := &worktreeFixture{dir: dir, r: r}
	if f.head, err = r.Refs().Get("HEAD"); err != nil {
		t.Fatal(err)
	}
	c, err := r.Objects().Commit(f.head)
	if err != nil {
		t.Fatal(err)
	}
	f.old = c.TreeHash
	return f
}

func (f *worktreeFixture) edit(t *testing.T, tree Hash, changes map[string]*TreeEntry) Hash {
	t.Helper()
	for p, e := range changes {
		var err error
		if tree, err = f.r.Writes().ReplacePath(tree, p, e); err != nil {
			t.Fatal(err)
		}
	}
	return tree
}

var skillPrefixes = []string{"skills/a", "skills/b", "skills/c"}

// commitNew records the new tree on main, as lifecycle code does after
// updating the worktree.
func (f *worktreeFixture) commitNew(t *testing.T) {
	t.Helper()
	next := mustCommit(t, f.r, f.new, "update skills", f.head)
	if err := f.r.Updates().Update("refs/heads/main", next, f.head, "commit: update skills"); err != nil {
		t.Fatal(err)
	}
}

func readTreeFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.Name() == ".git" {
			return map[bool]error{true: filepath.SkipDir, false: err}[err == nil]
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			got[filepath.ToSlash(rel)] = "-> " + target
		case d.Type().IsRegular():
			b, _ := os.ReadFile(p)
			got[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestUpdateWorktree(t *testing.T) {
	f := newWorktreeFixture(t)
	if err := os.WriteFile(filepath.Join(f.dir, "other", "x.md"), []byte("edited outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := f.r.UpdateWorktree(f.old, f.new, skillPrefixes); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"README": "outside\n", "other/x.md": "edited outside\n",
		"skills/a/SKILL.md": "a v2\n", "skills/c/SKILL.md": "c\n",
		"skills/c/tool.sh": "#!/bin/sh\nexit 0\n", "skills/c/link.md": "-> SKILL.md",
	}
	if diff := cmp.Diff(want, readTreeFiles(t, f.dir)); diff != "" {
		t.Errorf("worktree (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(f.dir, "skills", "b")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("emptied folder skills/b still exists: %v", err)
	}
	if fi, err := os.Stat(filepath.Join(f.dir, "skills", "c", "tool.sh")); err != nil || fi.Mode().Perm()&0o100 == 0 {
		t.Errorf("tool.sh is not executable: %v, %v", fi, err)
	}
	f.commitNew(t)
	// diff-files trusts the index's stat data without refreshing it, so
	// it lists any entry whose recorded stat data is wrong.
	if got := gitRun(t, f.dir, "diff-files", "--name-only"); got != "other/x.md\n" {
		t.Errorf("git diff-files = %q, want only the edit outside the prefixes", got)
	}
	if got := gitRun(t, f.dir, "status", "--porcelain"); got != " M other/x.md\n" {
		t.Errorf("git status --porcelain = %q, want only the edit outside the prefixes", got)
	}
	gitRun(t, f.dir, "diff", "--quiet", "--cached")
}

func TestUpdateWorktreeRefusesDirtyPaths(t *testing.T) {
	tests := map[string]struct {
		prepare func(t *testing.T, dir string)
		names   string
	}{
		"modified file": {func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"skills/a/SKILL.md": "local edit\n"})
		}, "skills/a/SKILL.md (modified)"},
		"same size edit": {func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"skills/b/SKILL.md": "B\n"})
		}, "skills/b/SKILL.md (modified)"},
		"deleted file": {func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, "skills", "a", "SKILL.md"))
		}, "skills/a/SKILL.md (deleted)"},
		"mode change": {func(t *testing.T, dir string) {
			os.Chmod(filepath.Join(dir, "skills", "a", "run.sh"), 0o644)
		}, "skills/a/run.sh (mode changed)"},
		"staged change": {func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"skills/a/SKILL.md": "staged\n"})
			gitRun(t, dir, "add", "skills/a/SKILL.md")
		}, "skills/a/SKILL.md"},
		"staged new file": {func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"skills/b/extra.md": "new\n"})
			gitRun(t, dir, "add", "skills/b/extra.md")
		}, "skills/b/extra.md (staged)"},
		"untracked file in the way": {func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"skills/c/SKILL.md": "mine\n"})
		}, "skills/c/SKILL.md (untracked, would be overwritten)"},
		"link in the way": {func(t *testing.T, dir string) {
			os.Symlink(t.TempDir(), filepath.Join(dir, "skills", "c"))
		}, "skills/c is an untracked file or link in the way"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			f := newWorktreeFixture(t)
			tt.prepare(t, f.dir)
			before := readTreeFiles(t, f.dir)
			indexBefore, _ := os.ReadFile(filepath.Join(f.dir, ".git", "index"))
			err := f.r.UpdateWorktree(f.old, f.new, skillPrefixes)
			if !errors.Is(err, ErrDirty) || !strings.Contains(err.Error(), tt.names) {
				t.Fatalf("UpdateWorktree = %v; want ErrDirty naming %q", err, tt.names)
			}
			if diff := cmp.Diff(before, readTreeFiles(t, f.dir)); diff != "" {
				t.Errorf("a refused update changed the worktree (-before +after):\n%s", diff)
			}
			if indexAfter, _ := os.ReadFile(filepath.Join(f.dir, ".git", "index")); string(indexAfter) != string(indexBefore) {
				t.Error("a refused update changed the index")
			}
		})
	}
}

// TestUpdateWorktreeAcceptsWhatNewHolds checks that files that already are what the new tree
// holds (an edit that is being published, an untracked copy of a new file, a deletion made by
// hand) do not stop the update, and that git status is clean afterwards.
func TestUpdateWorktreeAcceptsWhatNewHolds(t *testing.T) {
	f := newWorktreeFixture(t)
	writeFiles(t, f.dir, map[string]string{"skills/a/SKILL.md": "a v2\n", "skills/c/SKILL.md": "c\n"})
	os.Remove(filepath.Join(f.dir, "skills", "a", "run.sh"))
	gitRun(t, f.dir, "add", "skills/c/SKILL.md")
	if err := f.r.UpdateWorktree(f.old, f.new, skillPrefixes); err != nil {
		t.Fatalf("UpdateWorktree: %v", err)
	}
	f.commitNew(t)
	if got := gitRun(t, f.dir, "status", "--porcelain"); got != "" {
		t.Errorf("git status --porcelain = %q, want clean", got)
	}
}

// TestUpdateWorktreeNamesStagedFileOnce checks that a file staged where the new tree puts
// other content is reported once, as staged, not also as untracked.
func TestUpdateWorktreeNamesStagedFileOnce(t *testing.T) {
	f := newWorktreeFixture(t)
	writeFiles(t, f.dir, map[string]string{"skills/c/SKILL.md": "mine\n"})
	gitRun(t, f.dir, "add", "skills/c/SKILL.md")
	err := f.r.UpdateWorktree(f.old, f.new, skillPrefixes)
	if !errors.Is(err, ErrDirty) || strings.Count(err.Error(), "skills/c/SKILL.md") != 1 || !strings.Contains(err.Error(), "skills/c/SKILL.md (staged)") {
		t.Fatalf("UpdateWorktree = %v; want ErrDirty naming skills/c/SKILL.md once, as staged", err)
	}
}

// TestUpdateWorktreeSweepsKilledTemps checks that a temporary file left by an update that was
// killed part way is removed by the next update of that folder, and nothing else is.
func TestUpdateWorktreeSweepsKilledTemps(t *testing.T) {
	f := newWorktreeFixture(t)
	writeFiles(t, f.dir, map[string]string{"skills/a/.skillgit-0123456789abcdef.tmp": "half", "skills/a/.skillgit-notes.tmp": "mine\n"})
	if err := f.r.UpdateWorktree(f.old, f.new, skillPrefixes); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(f.dir, "skills", "a", ".skillgit-0123456789abcdef.tmp")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the killed update's temporary file is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(f.dir, "skills", "a", ".skillgit-notes.tmp")); err != nil {
		t.Errorf("a file of the user's was removed: %v", err)
	}
}

func TestUpdateWorktreeKeepsUntrackedFiles(t *testing.T) {
	f := newWorktreeFixture(t)
	writeFiles(t, f.dir, map[string]string{"skills/b/notes.txt": "mine\n", "skills/new/draft.md": "draft\n"})
	if err := f.r.UpdateWorktree(f.old, f.new, skillPrefixes); err != nil {
		t.Fatal(err)
	}
	got := readTreeFiles(t, f.dir)
	if got["skills/b/notes.txt"] != "mine\n" || got["skills/new/draft.md"] != "draft\n" {
		t.Errorf("untracked files were touched: %v", got)
	}
	f.commitNew(t)
	if got := gitRun(t, f.dir, "status", "--porcelain"); got != "?? skills/b/\n?? skills/new/\n" {
		t.Errorf("git status --porcelain = %q", got)
	}
}

func TestUpdateWorktreeTypeChanges(t *testing.T) {
	f := newWorktreeFixture(t)
	// skills/a/run.sh becomes a folder, skills/b becomes a file.
	f.new = f.edit(t, f.old, map[string]*TreeEntry{
		"skills/a/run.sh": nil,
		"skills/b":        {Mode: filemode.Regular, Hash: mustBlob(t, f.r, "now a file\n")},
	})
	f.new = f.edit(t, f.new, map[string]*TreeEntry{
		"skills/a/run.sh/inner.md": {Mode: filemode.Regular, Hash: mustBlob(t, f.r, "inner\n")},
	})
	if err := f.r.UpdateWorktree(f.old, f.new, []string{"skills"}); err != nil {
		t.Fatal(err)
	}
	f.commitNew(t)
	if got := gitRun(t, f.dir, "status", "--porcelain"); got != "" {
		t.Errorf("git status --porcelain = %q, want clean", got)
	}
}

func TestUpdateWorktreeWithoutWorktree(t *testing.T) {
	for name, r := range map[string]*Repo{"memory": OpenMemory(), "bare": diskRepo(true)(t)} {
		t.Run(name, func(t *testing.T) {
			tree := mustTree(t, r, file("a", mustBlob(t, r, "a")))
			if err := r.UpdateWorktree(ZeroHash, tree, []string{"a"}); err != nil {
				t.Errorf("UpdateWorktree = %v, want a no-op", err)
			}
		})
	}
	f := newWorktreeFixture(t)
	for _, bad := range [][]string{{""}, {"."}, {"../x"}, {"skills/.git"}} {
		if err := f.r.UpdateWorktree(f.old, f.new, bad); err == nil {
			t.Errorf("UpdateWorktree accepted prefixes %q", bad)
		}
	}
}

func TestUpdateWorktreeStaysInsidePrefixes(t *testing.T) {
	tests := map[string]struct {
		prefix    string
		dirExists bool
	}{
		"folder prefix removes the emptied folder": {"other", false},
		"file prefix keeps its parent folder":      {"other/x.md", true},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			f := newWorktreeFixture(t)
			f.new = f.edit(t, f.old, map[string]*TreeEntry{"other/x.md": nil})
			if err := f.r.UpdateWorktree(f.old, f.new, []string{tt.prefix}); err != nil {
				t.Fatal(err)
			}
			_, err := os.Stat(filepath.Join(f.dir, "other"))
			if exists := err == nil; exists != tt.dirExists {
				t.Errorf("folder other exists = %v, want %v", exists, tt.dirExists)
			}
			f.commitNew(t)
			if got := gitRun(t, f.dir, "status", "--porcelain"); got != "" {
				t.Errorf("git status --porcelain = %q", got)
			}
		})
	}
}
