package gitstore

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var sortStrings = cmpopts.SortSlices(func(a, b string) bool { return a < b })

var stagedFiles = map[string]string{
	"README.md":                      "top\n",
	"skills/pdf-tools/SKILL.md":      "---\nname: pdf-tools\n---\n",
	"skills/pdf-tools/scripts/go.sh": "#!/bin/sh\n",
	"skills/review/SKILL.md":         "---\nname: review\n---\n",
	"skills/review/notes/a.md":       "a\n",
	"tools/x.txt":                    "x\n",
}

// stagedRepo makes a working tree with the git command line, with
// stagedFiles staged and, when committed, committed.
func stagedRepo(t *testing.T, committed bool) string {
	t.Helper()
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q", "-b", "main")
	writeFiles(t, dir, stagedFiles)
	gitRun(t, dir, "add", "-A")
	if committed {
		gitRun(t, dir, "commit", "-q", "-m", "first")
	}
	return dir
}

// gitTrees returns what git writes for the whole index and for skills,
// or "" for skills when it has no such folder.
func gitTrees(t *testing.T, dir string) (root, skills string) {
	t.Helper()
	root = strings.TrimSpace(gitRun(t, dir, "write-tree"))
	out, err := gitErr(dir, "", "rev-parse", "--verify", "-q", root+":skills")
	if err != nil {
		return root, ""
	}
	return root, strings.TrimSpace(out)
}

// indexTrees returns IndexTree for the whole index and for skills.
func indexTrees(t *testing.T, r *Repo) (root, skills string) {
	t.Helper()
	return indexTreeString(t, r, ""), indexTreeString(t, r, "skills")
}

func indexTreeString(t *testing.T, r *Repo, dir string) string {
	t.Helper()
	h, ok, err := r.IndexTree(dir)
	if err != nil {
		t.Fatalf("IndexTree(%q): %v", dir, err)
	}
	if !ok {
		return ""
	}
	return h.String()
}

func TestIndexTreeMatchesGitWriteTree(t *testing.T) {
	tests := []struct {
		name      string
		committed bool
		setup     func(t *testing.T, dir string)
	}{
		{"staged, no cache-tree", false, func(*testing.T, string) {}},
		{"committed, cache-tree valid", true, func(*testing.T, string) {}},
		{"staged edit", true, func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"skills/review/SKILL.md": "changed\n"})
			gitRun(t, dir, "add", "skills/review/SKILL.md")
		}},
		{"staged new file and folder", true, func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"skills/review/more.md": "m\n", "skills/new/SKILL.md": "n\n"})
			gitRun(t, dir, "add", "skills")
		}},
		{"staged deletion", true, func(t *testing.T, dir string) {
			gitRun(t, dir, "rm", "-q", "skills/review/notes/a.md")
		}},
		{"staged deletion of every skill", true, func(t *testing.T, dir string) {
			gitRun(t, dir, "rm", "-q", "-r", "skills")
		}},
		{"staged symlink, executable and gitlink", true, func(t *testing.T, dir string) {
			if err := os.Symlink("SKILL.md", filepath.Join(dir, "skills/review/link.md")); err != nil {
				t.Fatal(err)
			}
			gitRun(t, dir, "add", "skills/review/link.md")
			gitRun(t, dir, "update-index", "--chmod=+x", "skills/review/SKILL.md")
			sub := strings.TrimSpace(gitRun(t, dir, "rev-parse", "HEAD"))
			gitRun(t, dir, "update-index", "--add", "--cacheinfo", "160000,"+sub+",skills/review/sub")
		}},
		{"worktree edit not staged", true, func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"skills/review/SKILL.md": "unstaged\n"})
		}},
		{"intent to add", true, func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"skills/review/later.md": "l\n", "skills/later/SKILL.md": "l\n"})
			gitRun(t, dir, "add", "-N", "skills/review/later.md", "skills/later/SKILL.md")
		}},
		{"index written by go-git", true, func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"skills/pdf-tools/SKILL.md": "edited\n"})
			gitRun(t, dir, "add", "-A")
			rewriteIndexWithGoGit(t, dir)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := stagedRepo(t, tc.committed)
			tc.setup(t, dir)
			r, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			// IndexTree goes first: git write-tree rewrites the index with
			// a fully valid cache-tree.
			gotRoot, gotSkills := indexTrees(t, r)
			wantRoot, wantSkills := gitTrees(t, dir)
			if diff := cmp.Diff([2]string{wantRoot, wantSkills}, [2]string{gotRoot, gotSkills}); diff != "" {
				t.Errorf("IndexTree before write-tree (-git +IndexTree):\n%s", diff)
			}
			againRoot, againSkills := indexTrees(t, r)
			if diff := cmp.Diff([2]string{wantRoot, wantSkills}, [2]string{againRoot, againSkills}); diff != "" {
				t.Errorf("IndexTree with git's cache-tree (-git +IndexTree):\n%s", diff)
			}
			gitRun(t, dir, "fsck", "--strict", "--no-dangling")
			readAll(t, r, plumbing.NewHash(gotRoot))
		})
	}
}

// readAll reads every file and link of tree through TreeFS.
func readAll(t *testing.T, r *Repo, tree Hash) {
	t.Helper()
	fsys := r.Objects().TreeFS(tree)
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.Type()&fs.ModeSymlink != 0:
			_, err = fs.ReadLink(fsys, p)
		case d.Type().IsRegular():
			_, err = fs.ReadFile(fsys, p)
		}
		return err
	})
	if err != nil {
		t.Errorf("reading IndexTree's tree through TreeFS: %v", err)
	}
}

// rewriteIndexWithGoGit rewrites the index with go-git's codec, which
// writes no cache-tree.
func rewriteIndexWithGoGit(t *testing.T, dir string) {
	t.Helper()
	path := filepath.Join(dir, ".git", "index")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	idx := &index.Index{}
	if err := index.NewDecoder(bytes.NewReader(b)).Decode(idx); err != nil {
		t.Fatal(err)
	}
	if idx.Cache == nil {
		t.Fatal("git wrote no cache-tree; the case would not test the fallback")
	}
	var buf bytes.Buffer
	if err := index.NewEncoder(&buf).Encode(idx); err != nil {
		t.Fatal(err)
	}
	if exts, err := indexExtensions(buf.Bytes()); err != nil || exts[cacheTreeSig] {
		t.Fatalf("go-git's index has extensions %v (%v); want no cache-tree", exts, err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestIndexTreeUsesCacheTree(t *testing.T) {
	dir := stagedRepo(t, true)
	writeFiles(t, dir, map[string]string{"skills/review/SKILL.md": "changed\n"})
	gitRun(t, dir, "add", "skills/review/SKILL.md")
	s, err := readStagedIndex(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	var valid []string
	for p := range s.valid {
		valid = append(valid, p)
	}
	want := []string{"skills/pdf-tools", "skills/pdf-tools/scripts", "skills/review/notes", "tools"}
	if diff := cmp.Diff(want, valid, sortStrings); diff != "" {
		t.Errorf("valid cache-tree folders (-want +got):\n%s", diff)
	}
	pdf := strings.TrimSpace(gitRun(t, dir, "rev-parse", "HEAD:skills/pdf-tools"))
	if got := s.valid["skills/pdf-tools"].String(); got != pdf {
		t.Errorf("cache-tree id of skills/pdf-tools = %s, want %s", got, pdf)
	}

	// A wrong id planted in the cache-tree shows that valid folders are
	// taken from it, not hashed.
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	planted := mustBlob(t, r, "not a tree")
	b := &stagedBuilder{r: r, path: s.path, valid: map[string]Hash{"skills/pdf-tools": planted}}
	ents, _ := s.under("skills")
	h, _, err := b.tree("skills", ents)
	if err != nil {
		t.Fatal(err)
	}
	e, _, err := r.Objects().EntryAt(h, "pdf-tools")
	if err != nil || e.Hash != planted {
		t.Errorf("skills/pdf-tools = %v (%v), want the cache-tree's id %s", e.Hash, err, planted)
	}
}

func TestIndexTreeEntryModes(t *testing.T) {
	dir := stagedRepo(t, true)
	if err := os.Symlink("SKILL.md", filepath.Join(dir, "skills/review/link.md")); err != nil {
		t.Fatal(err)
	}
	gitRun(t, dir, "add", "skills/review/link.md")
	sub := strings.TrimSpace(gitRun(t, dir, "rev-parse", "HEAD"))
	gitRun(t, dir, "update-index", "--add", "--cacheinfo", "160000,"+sub+",skills/review/sub")
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h, ok, err := r.IndexTree("skills/review")
	if err != nil || !ok {
		t.Fatalf("IndexTree = %v, %v", ok, err)
	}
	entries, err := r.Objects().ReadTree(h)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]filemode.FileMode{}
	for _, e := range entries {
		got[e.Name] = e.Mode
	}
	want := map[string]filemode.FileMode{"SKILL.md": filemode.Regular, "link.md": filemode.Symlink,
		"notes": filemode.Dir, "sub": filemode.Submodule}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("modes (-want +got):\n%s", diff)
	}
	scripts, ok, err := r.IndexTree("skills/pdf-tools/scripts")
	if err != nil || !ok {
		t.Fatalf("IndexTree(scripts) = %v, %v", ok, err)
	}
	if e, _, _ := r.Objects().EntryAt(scripts, "go.sh"); e.Mode != filemode.Executable {
		t.Errorf("go.sh mode = %v, want executable", e.Mode)
	}
}

func TestIndexTreeAbsentFolders(t *testing.T) {
	dir := stagedRepo(t, true)
	writeFiles(t, dir, map[string]string{"skills/later/SKILL.md": "l\n"})
	gitRun(t, dir, "add", "-N", "skills/later/SKILL.md")
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, p := range []string{"nothing", "skills/later", "skills/revie", "skill"} {
		if h, ok, err := r.IndexTree(p); err != nil || ok {
			t.Errorf("IndexTree(%q) = %v, %v, %v; want nothing", p, h, ok, err)
		}
	}
	if _, _, err := r.IndexTree("README.md"); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("IndexTree(README.md) error = %v, want one saying it is not a folder", err)
	}
	if _, _, err := r.IndexTree("../x"); err == nil {
		t.Error("IndexTree(../x) succeeded")
	}
	gitRun(t, dir, "rm", "-q", "--cached", "-r", ".")
	if h, ok, err := r.IndexTree(""); err != nil || ok {
		t.Errorf("IndexTree of an empty index = %v, %v, %v; want nothing", h, ok, err)
	}
}

func TestIndexTreeRefusesUnmergedEntries(t *testing.T) {
	dir := stagedRepo(t, true)
	gitRun(t, dir, "checkout", "-q", "-b", "other")
	writeFiles(t, dir, map[string]string{"skills/review/SKILL.md": "theirs\n"})
	gitRun(t, dir, "commit", "-q", "-am", "theirs")
	gitRun(t, dir, "checkout", "-q", "main")
	writeFiles(t, dir, map[string]string{"skills/review/SKILL.md": "ours\n"})
	gitRun(t, dir, "commit", "-q", "-am", "ours")
	if _, err := gitErr(dir, "", "merge", "-q", "other"); err == nil {
		t.Fatal("git merge did not conflict")
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, _, err = r.IndexTree("skills")
	if err == nil || !strings.Contains(err.Error(), "skills/review/SKILL.md is unmerged; resolve the conflict and stage the result") {
		t.Errorf("IndexTree error = %v, want one naming the unmerged path", err)
	}
}

func TestIndexTreeRefusesSparseIndex(t *testing.T) {
	t.Run("sparse directory entry", func(t *testing.T) {
		dir := stagedRepo(t, true)
		path := filepath.Join(dir, ".git", "index")
		idx := &index.Index{Version: 3, Entries: []*index.Entry{
			{Name: "README.md", Mode: filemode.Regular, Hash: plumbing.NewHash("4b825dc642cb6eb9a060e54bf8d69288fbee4904")},
			{Name: "skills/", Mode: filemode.Dir, SkipWorktree: true, Hash: emptyTree},
		}}
		var buf bytes.Buffer
		if err := index.NewEncoder(&buf).Encode(idx); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		assertUnsupportedIndex(t, dir, "sparse index")
	})
	t.Run("git sparse-checkout", func(t *testing.T) {
		dir := stagedRepo(t, true)
		r, err := Open(dir) // before the config names extensions.worktreeConfig
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		gitRun(t, dir, "sparse-checkout", "set", "--cone", "--sparse-index", "skills/pdf-tools")
		exts, _ := indexExtensions(mustRead(t, filepath.Join(dir, ".git", "index")))
		if !exts["sdir"] {
			t.Fatalf("git wrote no sparse index (extensions %v)", exts)
		}
		_, _, err = r.IndexTree("")
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "sparse index") {
			t.Errorf("IndexTree error = %v, want ErrUnsupported naming the sparse index", err)
		}
	})
}

func assertUnsupportedIndex(t *testing.T, dir, feature string) {
	t.Helper()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, _, err = r.IndexTree("")
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), feature) {
		t.Errorf("IndexTree error = %v, want ErrUnsupported naming %q", err, feature)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestIndexTreeLinkedWorktree(t *testing.T) {
	dir := stagedRepo(t, true)
	wt := filepath.Join(t.TempDir(), "wt")
	gitRun(t, dir, "worktree", "add", "-q", "-b", "feature", wt)
	writeFiles(t, wt, map[string]string{"skills/review/SKILL.md": "in the worktree\n"})
	gitRun(t, wt, "add", "skills/review/SKILL.md")
	r, err := Open(wt)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	gotRoot, gotSkills := indexTrees(t, r)
	wantRoot, wantSkills := gitTrees(t, wt)
	if diff := cmp.Diff([2]string{wantRoot, wantSkills}, [2]string{gotRoot, gotSkills}); diff != "" {
		t.Errorf("IndexTree in a linked worktree (-git +IndexTree):\n%s", diff)
	}
	if head := strings.TrimSpace(gitRun(t, dir, "rev-parse", "HEAD:skills")); head == gotSkills {
		t.Error("IndexTree read the main worktree's index, not the linked one's")
	}
}

func TestIndexTreeInMemory(t *testing.T) {
	if _, _, err := OpenMemory().IndexTree(""); err == nil {
		t.Error("IndexTree in memory succeeded")
	}
}
