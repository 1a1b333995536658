package gitstore

import (
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing/object"
)

// WalkFirstParent calls fn for from and each of its first parents in
// turn, newest first, until the root commit or, in a shallow clone, the
// shallow boundary. When fn returns ErrStop the walk ends without error;
// any other error ends it and is returned.
func (r *History) WalkFirstParent(from Hash, fn func(h Hash, c *object.Commit) error) error {
	shallow, err := r.shallowCommits()
	if err != nil {
		return err
	}
	for h := from; ; {
		c, err := (*Objects)(r).Commit(h)
		if err != nil {
			return err
		}
		if err := fn(h, c); err != nil {
			if errors.Is(err, ErrStop) {
				return nil
			}
			return err
		}
		if len(c.ParentHashes) == 0 || shallow[h] {
			return nil
		}
		h = c.ParentHashes[0]
	}
}

// shallowCommits returns the commits whose parents a shallow clone lacks.
func (r *History) shallowCommits() (map[Hash]bool, error) {
	r.objMu.Lock()
	defer r.objMu.Unlock()
	list, err := r.storer.Shallow()
	if err != nil {
		return nil, fmt.Errorf("reading shallow file: %w", err)
	}
	set := make(map[Hash]bool, len(list))
	for _, h := range list {
		set[h] = true
	}
	return set, nil
}
