package gitstore

import (
	"encoding/binary"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

func indexExtensions(b []byte) (map[string]bool, error) {
	exts := map[string]bool{}
	err := eachIndexExtension(b, func(sig string, _ []byte) { exts[sig] = true })
	if err != nil {
		return nil, err
	}
	return exts, nil
}

// splitIndexRepo is a checkout with core.splitIndex set whose index git wrote split, the
// shared index kept while commits replaced, deleted and added entries.
func splitIndexRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q", "-b", "main")
	gitRun(t, dir, "config", "core.splitIndex", "true")
	gitRun(t, dir, "config", "splitIndex.maxPercentChange", "100")
	writeFiles(t, dir, spliceFiles)
	gitRun(t, dir, "add", ".")
	gitRun(t, dir, "commit", "-q", "-m", "first")
	gitRun(t, dir, "update-index", "--split-index")
	writeFiles(t, dir, map[string]string{"skills/b/SKILL.md": "b v2\n", "skills/c/SKILL.md": "c\n"})
	gitRun(t, dir, "rm", "-q", "top.md")
	gitRun(t, dir, "add", ".")
	gitRun(t, dir, "commit", "-q", "-m", "second")
	exts, err := indexExtensions(indexBytes(t, dir))
	if err != nil || !exts[linkSig] {
		t.Fatalf("git wrote no split index (extensions %v, %v)", exts, err)
	}
	return dir
}

// TestSplitIndexReadAsGitReadsIt checks that a split index is read, with its shared index,
// as the entries `git ls-files --stage` lists.
func TestSplitIndexReadAsGitReadsIt(t *testing.T) {
	dir := splitIndexRepo(t)
	path := filepath.Join(dir, ".git", "index")
	var idx index.Index
	if err := decodeIndexFile(indexBytes(t, dir), path, &idx); err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for _, e := range idx.Entries {
		fmt.Fprintf(&got, "%06o %s %d\t%s\n", uint32(e.Mode), e.Hash, e.Stage, e.Name)
	}
	if want := gitRun(t, dir, "ls-files", "--stage"); got.String() != want {
		t.Errorf("entries read:\n%s\ngit ls-files --stage:\n%s", got.String(), want)
	}
}

// TestSplitIndexUpdate checks that a working tree update in a checkout with core.splitIndex
// set leaves an index git accepts as the new commit's, and that git goes on splitting it.
func TestSplitIndexUpdate(t *testing.T) {
	dir := splitIndexRepo(t)
	f := worktreeFixtureAt(t, dir)
	r := f.r
	f.new = f.edit(t, f.old, map[string]*TreeEntry{
		"skills/b/SKILL.md": {Mode: filemode.Regular, Hash: mustBlob(t, r, "b v3\n")},
		"skills/c":          nil,
		"skills/d/SKILL.md": {Mode: filemode.Regular, Hash: mustBlob(t, r, "d\n")},
	})
	if err := r.UpdateWorktree(f.old, f.new, []string{"skills/b", "skills/c", "skills/d"}); err != nil {
		t.Fatal(err)
	}
	f.commitNew(t)
	checkIndexMatchesHead(t, dir, f.new)
	writeFiles(t, dir, map[string]string{"skills/e/SKILL.md": "e\n"})
	gitRun(t, dir, "add", ".")
	gitRun(t, dir, "commit", "-q", "-m", "third")
	if exts, _ := indexExtensions(indexBytes(t, dir)); !exts[linkSig] {
		t.Error("git did not split the index again after the update")
	}
	c, err := r.Objects().Commit(mustHead(t, r))
	if err != nil {
		t.Fatal(err)
	}
	checkIndexMatchesHead(t, dir, c.TreeHash)
}

func mustHead(t *testing.T, r *Repo) Hash {
	t.Helper()
	h, err := r.Refs().Get("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestReadEWAHBounds checks that a bitmap with a position past the shared index, or a word
// count past its bytes, is refused before anything is allocated for it.
func TestReadEWAHBounds(t *testing.T) {
	bitmap := func(words ...uint64) []byte {
		b := binary.BigEndian.AppendUint32(nil, uint32(64*len(words)))
		b = binary.BigEndian.AppendUint32(b, uint32(len(words)))
		for _, w := range words {
			b = binary.BigEndian.AppendUint64(b, w)
		}
		return binary.BigEndian.AppendUint32(b, 0)
	}
	// A marker: a clean run of set bits 2 words long, then one literal word with bits 0 and 3.
	got, rest, ok := readEWAH(bitmap(1|2<<1|1<<33, 0b1001), 200)
	want := []int{}
	for i := range 128 {
		want = append(want, i)
	}
	want = append(want, 128, 131)
	if !ok || len(rest) != 0 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("readEWAH = %v, %v, %v; want %v", got, rest, ok, want)
	}
	for name, b := range map[string][]byte{
		"run past the limit":        bitmap(1 | (1<<32-1)<<1),
		"literal past the limit":    bitmap(1<<1|1<<33, 1<<63), // bit 127
		"literals past the words":   bitmap(5 << 33),
		"word count past the bytes": bitmap(0)[:12],
	} {
		if _, _, ok := readEWAH(b, 100); ok {
			t.Errorf("%s: read", name)
		}
	}
}
