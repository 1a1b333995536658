package gitstore

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// TestCacheTreePatchAsGit checks that patching the cache-tree for a changed file gives the
// very bytes git writes when it changes that file in the index.
func TestCacheTreePatchAsGit(t *testing.T) {
	dir := smallIndexRepo(t)
	before := cacheTreeOf(t, indexBytes(t, dir))
	blob := strings.TrimSpace(gitIn(t, dir, "patched\n", "hash-object", "-w", "--stdin"))
	gitRun(t, dir, "update-index", "--cacheinfo", "100644,"+blob+",skills/b/scripts/run.sh")
	want := cacheTreeOf(t, indexBytes(t, dir))
	if got := patchCacheTree(bytes.Clone(before), []string{"skills/b/scripts/run.sh"}); !bytes.Equal(got, want) {
		t.Errorf("patched cache-tree:\n%q\ngit's:\n%q", got, want)
	}
}

// TestCacheTreePatchForgetsFolders checks, against the parser that reads every folder, that
// patching for changed folders keeps every other valid folder and drops the changed ones,
// what is below them and what holds them, and that unreadable data gives nil.
func TestCacheTreePatchForgetsFolders(t *testing.T) {
	dir := smallIndexRepo(t)
	data := cacheTreeOf(t, indexBytes(t, dir))
	before, err := parseCacheTree(data)
	if err != nil {
		t.Fatal(err)
	}
	changed := []string{"skills/b", "skills/zz", "skills/c/"}
	out := patchCacheTree(bytes.Clone(data), changed)
	after, err := parseCacheTree(out)
	if err != nil {
		t.Fatalf("the patched cache-tree does not parse: %v", err)
	}
	want := map[string]Hash{}
	for p, h := range before {
		if p != "" && p != "skills" && !strings.HasPrefix(p+"/", "skills/b/") && p != "skills/c" {
			want[p] = h
		}
	}
	if !maps.Equal(after, want) {
		t.Errorf("valid folders after the patch: %v; want %v", slices.Sorted(maps.Keys(after)), slices.Sorted(maps.Keys(want)))
	}
	if patchCacheTree(data[:len(data)-3], changed) != nil || patchCacheTree(data[:len(data)-3], nil) != nil {
		t.Error("a truncated cache-tree was patched")
	}
}

// TestWideFolderLosesItsSubfolders checks that an update below a folder of more than
// wideFolder subfolders leaves it in the cache-tree invalid and without them, that the
// folders beside it stay valid, and that git reads the index as the new commit's.
func TestWideFolderLosesItsSubfolders(t *testing.T) {
	dir := manySkillsRepo(t, wideFolder+1, "", false)
	writeFiles(t, dir, map[string]string{"docs/a/x.md": "x\n"})
	gitRun(t, dir, "add", "docs")
	gitRun(t, dir, "commit", "-q", "-m", "docs")
	f := worktreeFixtureAt(t, dir)
	f.new = f.edit(t, f.old, map[string]*TreeEntry{"skills/s003/SKILL.md": {Mode: filemode.Regular, Hash: mustBlob(t, f.r, "patched\n")}})
	if err := f.r.UpdateWorktree(f.old, f.new, []string{"skills/s003"}); err != nil {
		t.Fatal(err)
	}
	f.commitNew(t)
	data := cacheTreeOf(t, indexBytes(t, dir))
	root, err := parseCacheTreeNodes(data)
	if err != nil {
		t.Fatal(err)
	}
	var skills *ctNode
	for _, n := range root.subs {
		if n.name == "skills" {
			skills = n
		}
	}
	if root.count != -1 || skills == nil || skills.count != -1 || len(skills.subs) != 0 {
		t.Fatalf("cache-tree after the update: %q; want the root and skills invalid, skills without subfolders", data)
	}
	valid, err := parseCacheTree(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := valid["docs/a"]; !ok || len(valid) != 2 {
		t.Errorf("valid folders %v; want docs and docs/a", slices.Sorted(maps.Keys(valid)))
	}
	checkSplitMatchesHead(t, dir, f.new)
}
