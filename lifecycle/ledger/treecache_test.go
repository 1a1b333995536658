package ledger

import (
	"fmt"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/gitstore"
)

// TestTreeCacheBoundedByBytes checks that the ledger's tree cache keeps the trees it read
// lately within its byte budget, dropping the oldest first, and never keeps a tree larger
// than the budget, while still serving it.
func TestTreeCacheBoundedByBytes(t *testing.T) {
	g := gitstore.OpenMemory()
	blob, err := g.Writes().WriteBlob([]byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	tree := func(n int) gitstore.Hash {
		entries := make([]gitstore.TreeEntry, n)
		for i := range entries {
			entries[i] = gitstore.TreeEntry{Name: fmt.Sprintf("skill-%05d", i), Mode: filemode.Regular, Hash: blob}
		}
		h, err := g.Writes().WriteTree(entries)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	small := []gitstore.Hash{tree(10), tree(11), tree(12), tree(13)}
	big := tree(200)
	c := newTreeCache(StoreOf(g))
	one, err := c.ReadRawTree(small[0])
	if err != nil {
		t.Fatal(err)
	}
	c.budget = 2*one.Size() + 60 // room for two of the small trees, not three
	for _, h := range small {
		if _, err := c.ReadRawTree(h); err != nil {
			t.Fatal(err)
		}
		if c.bytes > c.budget {
			t.Fatalf("after reading %s the cache holds %d bytes, over its budget of %d", h, c.bytes, c.budget)
		}
	}
	if _, ok := c.trees[small[3]]; !ok {
		t.Error("the tree read last is not kept")
	}
	if _, ok := c.trees[small[0]]; ok {
		t.Error("the tree read first is still kept, beyond the budget")
	}
	got, err := c.ReadRawTree(big)
	if err != nil || got.ID() != big {
		t.Fatalf("reading a tree larger than the budget: %v, %v", got.ID(), err)
	}
	if _, ok := c.trees[big]; ok {
		t.Error("a tree larger than the whole budget is kept")
	}
}
