package gitstore

import (
	"fmt"
	"os"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// TestLargeTreeReadOnce checks that a large tree written or read once is served from memory
// afterwards, decoded or not, and that a small one is read from the repository each time.
func TestLargeTreeReadOnce(t *testing.T) {
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q", "--bare")
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	blob := mustBlob(t, r, "x\n")
	var large []TreeEntry
	for i := range 3000 { // about 100 KB
		large = append(large, TreeEntry{Name: fmt.Sprintf("skill-%05d", i), Mode: filemode.Regular, Hash: blob})
	}
	big, err := r.Writes().WriteTree(large)
	if err != nil {
		t.Fatal(err)
	}
	small, err := r.Writes().WriteTree(large[:3])
	if err != nil {
		t.Fatal(err)
	}
	r.trees = newTreeCache(treeCacheEntries) // the parsed trees go; the bytes stay
	for _, h := range []Hash{big, small} {
		if err := os.Remove(loosePath(dir+"/objects", h)); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := r.Objects().ReadRawTree(big)
	if err != nil || raw.Size() < rawTreeMinSize {
		t.Fatalf("ReadRawTree of the large tree without its object = %d bytes, %v", raw.Size(), err)
	}
	if entries, err := r.Objects().ReadTree(big); err != nil || len(entries) != len(large) {
		t.Fatalf("ReadTree of the large tree without its object = %d entries, %v", len(entries), err)
	}
	if _, err := r.Objects().ReadRawTree(small); err == nil {
		t.Error("a small tree was kept in memory")
	}
}

// TestRawTreeCacheBound checks that the kept bytes never add up to more than the bound, the
// oldest tree going first.
func TestRawTreeCacheBound(t *testing.T) {
	var c rawTreeCache
	chunk := make([]byte, rawTreeMaxBytes/3+1)
	ids := []Hash{{1}, {2}, {3}}
	for _, h := range ids {
		c.add(h, chunk)
	}
	if c.size > rawTreeMaxBytes {
		t.Errorf("kept %d bytes; the bound is %d", c.size, rawTreeMaxBytes)
	}
	if _, ok := c.get(ids[0]); ok {
		t.Error("the oldest tree is still kept")
	}
	if _, ok := c.get(ids[2]); !ok {
		t.Error("the newest tree is not kept")
	}
}

// TestRawTreeCacheKeepsWhatIsUsed checks the bound on the number of trees kept, and that a
// tree read again, like the version a batch compares every new one with, outlives newer
// ones that were not.
func TestRawTreeCacheKeepsWhatIsUsed(t *testing.T) {
	var c rawTreeCache
	chunk := make([]byte, rawTreeMinSize)
	for i := range rawTreeMaxKept {
		c.add(Hash{byte(i + 1)}, chunk)
	}
	if _, ok := c.get(Hash{1}); !ok {
		t.Fatal("the first tree is not kept")
	}
	c.add(Hash{100}, chunk)
	if len(c.order) != rawTreeMaxKept {
		t.Errorf("kept %d trees; the bound is %d", len(c.order), rawTreeMaxKept)
	}
	if _, ok := c.get(Hash{1}); !ok {
		t.Error("the tree read again went first")
	}
	if _, ok := c.get(Hash{2}); ok {
		t.Error("the least recently used tree is still kept")
	}
}
