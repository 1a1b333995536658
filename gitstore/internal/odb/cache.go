package odb

import "sync"

// DefaultCacheSize is the byte budget of the delta-base cache that Open
// gives a DB. It holds dozens of versions of the skills folder of 10,000
// skills, which a walk over the history reads one after another; twice as
// much saved no time there, and cost a first sync of 10,000 skills 30 MB.
const DefaultCacheSize = 16 << 20

// cacheKey names a pack entry.
type cacheKey struct {
	p   *pack
	off int64
}

// cacheEntry is a resolved object in the cache's recency list.
type cacheEntry struct {
	key        cacheKey
	typ        Type
	data       []byte
	prev, next *cacheEntry
}

// baseCache keeps resolved delta bases, least recently used first out
// when the bytes of their buffers pass max: their capacity, larger than
// the object's length when getBuf handed out a buffer given back. The
// data it holds is never written to, nor given back to the pool of
// buffers: a reader may be using it as a base.
type baseCache struct {
	mu   sync.Mutex
	max  int64
	used int64
	m    map[cacheKey]*cacheEntry
	lru  cacheEntry // sentinel: lru.next is the most recent
}

// newBaseCache returns a cache of at most max bytes.
func newBaseCache(max int64) *baseCache {
	c := &baseCache{max: max, m: make(map[cacheKey]*cacheEntry)}
	c.lru.next, c.lru.prev = &c.lru, &c.lru
	return c
}

// get returns the cached object at k.
func (c *baseCache) get(k cacheKey) (Type, []byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.m[k]
	if e == nil {
		return 0, nil, false
	}
	c.unlink(e)
	c.pushFront(e)
	return e.typ, e.data, true
}

// put caches the object at k unless it is larger than the whole budget.
func (c *baseCache) put(k cacheKey, typ Type, data []byte) {
	size := int64(cap(data)) + 64
	if size > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; ok {
		return
	}
	for c.used+size > c.max {
		c.evict(c.lru.prev)
	}
	e := &cacheEntry{key: k, typ: typ, data: data}
	c.m[k] = e
	c.pushFront(e)
	c.used += size
}

// evict removes e.
func (c *baseCache) evict(e *cacheEntry) {
	c.unlink(e)
	delete(c.m, e.key)
	c.used -= int64(cap(e.data)) + 64
}

func (c *baseCache) unlink(e *cacheEntry) {
	e.prev.next, e.next.prev = e.next, e.prev
}

func (c *baseCache) pushFront(e *cacheEntry) {
	e.prev, e.next = &c.lru, c.lru.next
	c.lru.next.prev = e
	c.lru.next = e
}
