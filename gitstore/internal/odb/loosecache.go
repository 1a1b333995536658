package odb

import (
	"bytes"
	"sync"
)

// A batch reads some small loose objects once for each action: the commit at the tip of the
// publish branch and the trees above its skills folder, written by the last command. Each
// read of a loose object opens, reads, inflates and closes a file; a packed one is cheap to
// read again. So the last smallLooseKept loose objects of at most smallLooseMax bytes read are
// kept, and served as copies.
const (
	smallLooseMax  = 4 << 10
	smallLooseKept = 256
)

// looseCache keeps small loose objects read, the first kept going first. Objects are named by
// their content, so an entry never goes stale. It guards itself.
type looseCache struct {
	mu   sync.Mutex
	byID map[[20]byte]looseObject
	ring [][20]byte
	next int
}

// looseObject is a loose object kept: its type and content.
type looseObject struct {
	typ  Type
	data []byte
}

// get returns a copy of object id when it is kept; ok is false when it is not. An object
// larger than limit (when limit is not negative) gives the error Read gives for it.
func (c *looseCache) get(id *[20]byte, limit int64) (typ Type, data []byte, ok bool, err error) {
	c.mu.Lock()
	o, ok := c.byID[*id]
	c.mu.Unlock()
	switch {
	case !ok:
		return 0, nil, false, nil
	case limit >= 0 && int64(len(o.data)) > limit:
		return o.typ, nil, true, tooLarge(id, o.typ, int64(len(o.data)), limit)
	}
	return o.typ, bytes.Clone(o.data), true, nil
}

// put keeps a copy of object id, of type typ and content data, when it is small enough.
func (c *looseCache) put(id *[20]byte, typ Type, data []byte) {
	if len(data) > smallLooseMax {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byID[*id]; ok {
		return
	}
	if c.byID == nil {
		c.byID = map[[20]byte]looseObject{}
	}
	if len(c.ring) < smallLooseKept {
		c.ring = append(c.ring, *id)
	} else {
		delete(c.byID, c.ring[c.next])
		c.ring[c.next] = *id
		c.next = (c.next + 1) % smallLooseKept
	}
	c.byID[*id] = looseObject{typ: typ, data: bytes.Clone(data)}
}
