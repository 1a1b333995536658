package odb

import "testing"

// TestBaseCacheEvictsLeastRecent fills the cache past its budget and
// checks that the least recently used entries leave first and that the
// bytes held stay within the budget.
func TestBaseCacheEvictsLeastRecent(t *testing.T) {
	c := newBaseCache(4 * (100 + 64))
	p := &pack{}
	for off := int64(0); off < 4; off++ {
		c.put(cacheKey{p, off}, Blob, make([]byte, 100))
	}
	if _, _, ok := c.get(cacheKey{p, 0}); !ok {
		t.Fatal("entry 0 missing before the budget was passed")
	}
	c.put(cacheKey{p, 4}, Tree, make([]byte, 100))
	if _, _, ok := c.get(cacheKey{p, 1}); ok {
		t.Fatal("entry 1, the least recently used, was kept")
	}
	for _, off := range []int64{0, 2, 3, 4} {
		if _, _, ok := c.get(cacheKey{p, off}); !ok {
			t.Fatalf("entry %d was evicted", off)
		}
	}
	if c.used > c.max || len(c.m) != 4 {
		t.Fatalf("cache holds %d entries, %d bytes of %d", len(c.m), c.used, c.max)
	}
	c.put(cacheKey{p, 9}, Blob, make([]byte, 10000))
	if _, _, ok := c.get(cacheKey{p, 9}); ok || len(c.m) != 4 {
		t.Fatal("an entry larger than the whole budget was cached")
	}
	typ, data, ok := c.get(cacheKey{p, 4})
	if !ok || typ != Tree || len(data) != 100 {
		t.Fatalf("get = %v %d %v", typ, len(data), ok)
	}
}
