package gitstore

import (
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// Large trees, a skills folder of 100,000 entries being a few megabytes, are kept as their
// bytes once read or written: one command reads the same version of that folder several
// times (to find a skill, to compare it, to merge into it), and inflating it each time costs
// more than anything else a publish does.
const (
	rawTreeMinSize  = 4 << 10  // a skills folder of 100 skills; smaller trees inflate fast
	rawTreeMaxBytes = 32 << 20 // what the kept bytes may add up to: seven versions of a folder of 100,000
)

// rawTreeCache keeps the bytes of large trees by id, the oldest going first. Trees are
// immutable, so entries never go stale; the bytes are never changed once kept.
type rawTreeCache struct {
	mu    sync.Mutex
	size  int
	order []Hash
	byID  map[Hash][]byte
}

func (c *rawTreeCache) get(h Hash) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.byID[h]
	return b, ok
}

// add keeps b, the content of tree h, when it is large enough to be worth keeping.
func (c *rawTreeCache) add(h Hash, b []byte) {
	if len(b) < rawTreeMinSize || len(b) > rawTreeMaxBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byID[h]; ok {
		return
	}
	if c.byID == nil {
		c.byID = map[Hash][]byte{}
	}
	for c.size+len(b) > rawTreeMaxBytes {
		old := c.order[0]
		c.order = c.order[1:]
		c.size -= len(c.byID[old])
		delete(c.byID, old)
	}
	c.byID[h], c.order, c.size = b, append(c.order, h), c.size+len(b)
}

// treeBytes returns the content of tree h, which the caller must not change.
func (r *Objects) treeBytes(h Hash) ([]byte, error) {
	if b, ok := r.rawTrees.get(h); ok {
		return b, nil
	}
	b, err := r.readObject(plumbing.TreeObject, h, maxTreeSize)
	if err != nil {
		return nil, err
	}
	r.rawTrees.add(h, b)
	return b, nil
}
