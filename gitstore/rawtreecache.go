package gitstore

import (
	"slices"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// Large trees, a skills folder of 100,000 entries being a few megabytes, are kept as their
// bytes once read or written: one command reads the same version of that folder several
// times (to find a skill, to compare it, to merge into it), and inflating it each time costs
// more than anything else a publish does.
const (
	rawTreeMinSize = 4 << 10 // a skills folder of 100 skills; smaller trees inflate fast
	// rawTreeMinEntries is about how many entries a tree of rawTreeMinSize holds.
	rawTreeMinEntries = rawTreeMinSize / 40
	rawTreeMaxBytes   = 32 << 20 // what the kept bytes may add up to: seven versions of a folder of 100,000
	// rawTreeMaxKept bounds the trees kept: a batch makes a version of the same folder for
	// each action and needs the last few, whatever their size.
	rawTreeMaxKept = 8
)

// rawTreeCache keeps the bytes of large trees by id, the least recently used going first. Trees are
// immutable, so entries never go stale; the bytes are never changed once kept.
type rawTreeCache struct {
	mu    sync.Mutex
	size  int
	order []Hash
	byID  map[Hash]*keptTree
}

// keptTree is a large tree kept: its bytes, and the offsets of its entries once a lookup
// needed them.
type keptTree struct {
	b    []byte
	offs *treeOffsets
}

// get returns tree h when it is kept, and makes it the last to go.
func (c *rawTreeCache) get(h Hash) (*keptTree, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.byID[h]
	if ok {
		if i := slices.Index(c.order, h); i >= 0 {
			c.order = append(append(c.order[:i:i], c.order[i+1:]...), h)
		}
	}
	return t, ok
}

// add keeps b, the content of tree h, when it is large enough to be worth keeping, and
// returns what is kept of h (nil for nothing).
func (c *rawTreeCache) add(h Hash, b []byte) *keptTree {
	if len(b) < rawTreeMinSize || len(b) > rawTreeMaxBytes {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.byID[h]; ok {
		return t
	}
	if c.byID == nil {
		c.byID = map[Hash]*keptTree{}
	}
	for c.size+len(b) > rawTreeMaxBytes || len(c.order) >= rawTreeMaxKept {
		old := c.order[0]
		c.order = c.order[1:]
		c.size -= len(c.byID[old].b)
		delete(c.byID, old)
	}
	t := &keptTree{b: b, offs: &treeOffsets{near: c.nearOffsets}}
	c.byID[h], c.order, c.size = t, append(c.order, h), c.size+len(b)
	return t
}

// twin returns the id of a kept tree whose bytes are parts joined.
func (c *rawTreeCache) twin(parts []string) (Hash, bool) {
	n := partsLen(parts)
	c.mu.Lock()
	defer c.mu.Unlock()
	for h, t := range c.byID {
		if len(t.b) == n && sameParts(t.b, parts) {
			return h, true
		}
	}
	return ZeroHash, false
}

// sameParts reports whether b holds parts, one after the other, and nothing else.
func sameParts(b []byte, parts []string) bool {
	for _, p := range parts {
		if len(p) > len(b) || string(b[:len(p)]) != p {
			return false
		}
		b = b[len(p):]
	}
	return len(b) == 0
}

// treeBytes returns the content of tree h, which the caller must not change.
func (r *Objects) treeBytes(h Hash) ([]byte, error) {
	b, _, err := r.keptTree(h)
	return b, err
}

// keptTree returns the content of tree h, which the caller must not change, and the offsets
// of its entries when the tree is kept (nil when it is not).
func (r *Objects) keptTree(h Hash) ([]byte, *treeOffsets, error) {
	if t, ok := r.rawTrees.get(h); ok {
		return t.b, t.offs, nil
	}
	b, err := r.readObject(plumbing.TreeObject, h, maxTreeSize)
	if err != nil {
		return nil, nil, err
	}
	if t := r.rawTrees.add(h, b); t != nil {
		return b, t.offs, nil
	}
	return b, nil, nil
}
