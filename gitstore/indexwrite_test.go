package gitstore

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/google/go-cmp/cmp"
)

// smallIndexRepo is a checked-out repository whose index git wrote with a cache-tree, with
// an entry marked skip-worktree and one added with intent to add (index version 3).
func smallIndexRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q", "-b", "main")
	for _, p := range []string{"skills/a/SKILL.md", "skills/b/SKILL.md", "skills/b/scripts/run.sh", "skills/c/SKILL.md", "README.md"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(p+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "-m", "one")
	gitRun(t, dir, "write-tree") // fills the cache-tree
	return dir
}

func indexBytes(t *testing.T, dir string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestIndexFastDecodeMatchesGoGit checks that the fast decoder reads what go-git's decoder
// reads from indexes git wrote, versions 2 and 3, and that writing it back with its
// cache-tree gives git's very bytes.
func TestIndexFastDecodeMatchesGoGit(t *testing.T) {
	dir := smallIndexRepo(t)
	check := func(what string) {
		t.Helper()
		b := indexBytes(t, dir)
		var fast, slow index.Index
		if !decodeIndexFast(bytes.Clone(b), &fast) {
			t.Fatalf("%s: the fast decoder refused git's index", what)
		}
		if err := index.NewDecoder(bytes.NewReader(b)).Decode(&slow); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(slow.Entries, fast.Entries); diff != "" || fast.Version != slow.Version {
			t.Fatalf("%s: entries differ (-go-git +fast), versions %d %d:\n%s", what, slow.Version, fast.Version, diff)
		}
		var tree []byte
		_ = eachIndexExtension(b, func(sig string, data []byte) {
			if sig == cacheTreeSig {
				tree = data
			}
		})
		if tree == nil {
			t.Fatalf("%s: git wrote no cache-tree", what)
		}
		out, ok := encodeIndex(&fast, patchCacheTree(tree, nil))
		if !ok || !bytes.Equal(out, b) {
			t.Fatalf("%s: written back, the index differs from git's (ok %v)", what, ok)
		}
	}
	check("version 2")
	gitRun(t, dir, "update-index", "--skip-worktree", "skills/a/SKILL.md")
	if err := os.WriteFile(filepath.Join(dir, "new.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun(t, dir, "add", "-N", "new.txt")
	gitRun(t, dir, "write-tree")
	if v := indexBytes(t, dir)[7]; v != 3 {
		t.Fatalf("git wrote index version %d; want 3 for the extended flags", v)
	}
	check("version 3")
}

// TestIndexFastDecodeRefuses checks that what the fast decoder cannot read goes to go-git's
// decoder: version 4, and a truncated file. A wrong checksum is read, as git reads it.
func TestIndexFastDecodeRefuses(t *testing.T) {
	dir := smallIndexRepo(t)
	b := indexBytes(t, dir)
	bad := bytes.Clone(b)
	bad[len(bad)-1] ^= 1
	var idx index.Index
	if !decodeIndexFast(bad, &idx) || len(idx.Entries) == 0 {
		t.Error("an index with a wrong checksum was not read")
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "index"), bad, 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun(t, dir, "status", "--short") // git reads it too
	gitRun(t, dir, "update-index", "--index-version", "4")
	if decodeIndexFast(indexBytes(t, dir), &index.Index{}) {
		t.Error("an index of version 4 was read")
	}
	if decodeIndexFast(b[:40], &index.Index{}) {
		t.Error("a truncated index was read")
	}
}

// TestCacheTreeKeptAcrossUpdate checks that a working tree update keeps the cache-tree of
// the folders it did not touch and drops that of the ones it did: git's write-tree then
// gives the new commit's tree, and git status is clean.
func TestCacheTreeKeptAcrossUpdate(t *testing.T) {
	dir := smallIndexRepo(t)
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	head := strings.TrimSpace(gitRun(t, dir, "rev-parse", "HEAD"))
	oldT := strings.TrimSpace(gitRun(t, dir, "rev-parse", "HEAD^{tree}"))
	blob := strings.TrimSpace(gitIn(t, dir, "patched\n", "hash-object", "-w", "--stdin"))
	newT, err := r.Writes().ReplacePath(plumbing.NewHash(oldT), "skills/b/SKILL.md", &TreeEntry{Mode: 0o100644, Hash: plumbing.NewHash(blob)})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.UpdateWorktree(plumbing.NewHash(oldT), newT, []string{"skills/b"}); err != nil {
		t.Fatal(err)
	}
	valid, err := parseCacheTree(cacheTreeOf(t, indexBytes(t, dir)))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"", "skills", "skills/b", "skills/b/scripts"} {
		if _, ok := valid[p]; ok {
			t.Errorf("cache-tree of %q kept, though the update changed it", p)
		}
	}
	for _, p := range []string{"skills/a", "skills/c"} {
		if _, ok := valid[p]; !ok {
			t.Errorf("cache-tree of %q dropped, though the update did not touch it", p)
		}
	}
	commit := strings.TrimSpace(gitRun(t, dir, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit-tree", "-p", head, "-m", "two", newT.String()))
	gitRun(t, dir, "update-ref", "refs/heads/main", commit)
	if got := strings.TrimSpace(gitRun(t, dir, "write-tree")); got != newT.String() {
		t.Errorf("git write-tree = %s; want %s", got, newT)
	}
	if st := gitRun(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("git status after the update:\n%s", st)
	}
	gitRun(t, dir, "fsck", "--strict")
}

func cacheTreeOf(t *testing.T, b []byte) []byte {
	t.Helper()
	var tree []byte
	if err := eachIndexExtension(b, func(sig string, data []byte) {
		if sig == cacheTreeSig {
			tree = data
		}
	}); err != nil || tree == nil {
		t.Fatalf("no cache-tree in the index: %v", err)
	}
	return tree
}
