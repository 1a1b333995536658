package gitstore

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"testing"
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
