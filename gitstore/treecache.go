package gitstore

import (
	"container/list"
	"sync"
)

// treeCacheEntries bounds the parsed trees kept in memory, counted in tree
// entries (roughly 80 bytes each), so that a folder of 10,000 skills stays
// cached while its subtrees come and go.
const treeCacheEntries = 250_000

// treeCache is a least-recently-used cache of parsed trees. Trees are
// immutable, so entries never go stale.
type treeCache struct {
	mu    sync.Mutex
	max   int
	size  int
	order *list.List // of *cachedTree, most recent first
	byID  map[Hash]*list.Element
}

type cachedTree struct {
	id      Hash
	entries []TreeEntry
}

func newTreeCache(maxEntries int) *treeCache {
	return &treeCache{max: maxEntries, order: list.New(), byID: map[Hash]*list.Element{}}
}

func (c *treeCache) get(id Hash) ([]TreeEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byID[id]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*cachedTree).entries, true
}

func (c *treeCache) add(id Hash, entries []TreeEntry) {
	cost := len(entries) + 1
	if cost > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byID[id]; ok {
		c.order.MoveToFront(el)
		return
	}
	c.byID[id] = c.order.PushFront(&cachedTree{id: id, entries: entries})
	c.size += cost
	for c.size > c.max {
		c.evictOldest()
	}
}

func (c *treeCache) evictOldest() {
	el := c.order.Back()
	t := el.Value.(*cachedTree)
	c.order.Remove(el)
	delete(c.byID, t.id)
	c.size -= len(t.entries) + 1
}
