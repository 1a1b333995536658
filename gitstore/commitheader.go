package gitstore

import (
	"bytes"
	"fmt"
	"strconv"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// maxCommitSize bounds the size of a commit object that is parsed.
const maxCommitSize = 16 << 20

// commitHeader reads only what a history walk needs from commit h: its
// parents and its committer time. A committer line without a readable
// time counts as time 0, as in git.
func (r *Objects) commitHeader(h Hash) ([]Hash, int64, error) {
	if c, ok := r.headers.get(h); ok {
		return c.parents, c.when, nil
	}
	parents, when, err := r.readCommitHeader(h)
	if err == nil {
		r.headers.put(h, commitHead{parents, when})
	}
	return parents, when, err
}

// headerCacheSize bounds the commits whose headers a repository keeps, some 100 bytes each.
const headerCacheSize = 1 << 17

// headerCache keeps the parents and committer times that history walks read: a commit never
// changes, and walks back from a line that grows a commit at a time, as a batch of publishes
// makes it, would otherwise read the same commits again for every step. When full, it starts
// over.
type headerCache struct {
	mu sync.Mutex
	m  map[Hash]commitHead
}

// commitHead is what a history walk reads of a commit. parents is shared: never change it.
type commitHead struct {
	parents []Hash
	when    int64
}

func (c *headerCache) get(h Hash) (commitHead, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[h]
	return v, ok
}

func (c *headerCache) put(h Hash, v commitHead) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= headerCacheSize {
		c.m = make(map[Hash]commitHead)
	}
	c.m[h] = v
}

// readCommitHeader reads commit h for commitHeader.
func (r *Objects) readCommitHeader(h Hash) ([]Hash, int64, error) {
	b, err := r.readObject(plumbing.CommitObject, h, maxCommitSize)
	if err != nil {
		return nil, 0, err
	}
	var parents []Hash
	var when int64
	for len(b) > 0 {
		line, rest, _ := bytes.Cut(b, []byte{'\n'})
		if len(line) == 0 {
			break
		}
		if v, ok := bytes.CutPrefix(line, []byte("parent ")); ok {
			p, ok := parseHex(string(v))
			if !ok {
				return nil, 0, fmt.Errorf("commit %s: malformed parent line %q (the object is corrupt; run `git fsck`)", h, line)
			}
			parents = append(parents, p)
		} else if v, ok := bytes.CutPrefix(line, []byte("committer ")); ok {
			when = signatureTime(v)
		}
		b = rest
	}
	return parents, when, nil
}

// signatureTime parses the time of "Name <email> 1700000000 +0100".
func signatureTime(sig []byte) int64 {
	i := bytes.LastIndexByte(sig, '>')
	if i < 0 {
		return 0
	}
	f := bytes.Fields(sig[i+1:])
	if len(f) == 0 {
		return 0
	}
	t, err := strconv.ParseInt(string(f[0]), 10, 64)
	if err != nil {
		return 0
	}
	return t
}
