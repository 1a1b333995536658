package gitstore

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// maxTagDepth bounds chains of annotated tags pointing at tags.
const maxTagDepth = 10

// peel follows annotated tags to the object they point at.
func (r *Objects) peel(h Hash) (Hash, error) {
	for range maxTagDepth {
		tag, ok, err := r.tagObject(h)
		if err != nil || !ok {
			return h, err
		}
		h = tag.Target
	}
	return ZeroHash, fmt.Errorf("tag %s: tags nest deeper than %d", h, maxTagDepth)
}

// tagObject returns h as an annotated tag, if it is one. The fast reader tells the type from
// the object's header, so that the commit a branch names is not read through go-git, whose
// first read of a pack loads the whole pack index.
func (r *Objects) tagObject(h Hash) (*object.Tag, bool, error) {
	if t, _, ok, err := r.fastSize(plumbing.AnyObject, h); ok && (err != nil || t != plumbing.TagObject) {
		return nil, false, err
	}
	r.objMu.Lock()
	defer r.objMu.Unlock()
	obj, err := r.encodedObject(plumbing.AnyObject, h)
	if err != nil {
		return nil, false, err
	}
	if obj.Type() != plumbing.TagObject {
		return nil, false, nil
	}
	tag, err := object.DecodeTag(r.storer, obj)
	if err != nil {
		return nil, false, fmt.Errorf("tag %s: %w (the object is corrupt; run `git fsck`)", h, err)
	}
	return tag, true, nil
}
