package ledger

import (
	"sync"

	"github.com/skillgit/skillgit/gitstore"
)

// treeCacheSize is how many trees the ledger keeps read: the trees of consecutive commits of
// a line are shared, a large skills folder above all, and each is read once, not once per
// commit that holds it. treeCacheBytes bounds what they take: the skills folder of 100,000
// skills is a tree of some 4 MB, and a walk needs only the last few.
const (
	treeCacheSize  = 32
	treeCacheBytes = 16 << 20
)

// treeCache is a Store that keeps the last trees it read.
type treeCache struct {
	Store
	mu    sync.Mutex
	trees map[gitstore.Hash]gitstore.RawTree
	order []gitstore.Hash // oldest first
	bytes int
	// budget bounds bytes: treeCacheBytes, unless a test sets less.
	budget int
}

func newTreeCache(s Store) *treeCache {
	return &treeCache{Store: s, trees: map[gitstore.Hash]gitstore.RawTree{}, budget: treeCacheBytes}
}

// ReadRawTree reads tree h, from the cache when it was read lately.
func (c *treeCache) ReadRawTree(h gitstore.Hash) (gitstore.RawTree, error) {
	c.mu.Lock()
	t, ok := c.trees[h]
	c.mu.Unlock()
	if ok {
		return t, nil
	}
	t, err := c.Store.ReadRawTree(h)
	if err != nil {
		return t, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.trees[h]; !ok && t.Size() <= c.budget {
		for len(c.order) == treeCacheSize || c.bytes+t.Size() > c.budget {
			c.bytes -= c.trees[c.order[0]].Size()
			delete(c.trees, c.order[0])
			c.order = c.order[1:]
		}
		c.trees[h] = t
		c.order = append(c.order, h)
		c.bytes += t.Size()
	}
	return t, nil
}
