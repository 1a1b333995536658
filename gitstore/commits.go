package gitstore

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// CommitSpec describes a commit to write. A zero Tree is the empty tree;
// a zero When in a signature is the current time.
type CommitSpec struct {
	Tree      Hash
	Parents   []Hash
	Author    object.Signature
	Committer object.Signature
	Message   string
	// Sign, when set, signs the commit encoded without a signature; what it returns is
	// stored in the gpgsig header.
	Sign func(payload []byte) (string, error)
}

// WriteCommit stores a commit and returns its id. The tree and parents
// must already be stored.
func (r *Writes) WriteCommit(c CommitSpec) (Hash, error) {
	tree, err := r.commitTree(c.Tree)
	if err != nil {
		return ZeroHash, err
	}
	for _, p := range c.Parents {
		if p.IsZero() || !(*Objects)(r).hasObject(p) {
			return ZeroHash, fmt.Errorf("commit parent %s: %w; write or fetch it first", p, plumbing.ErrObjectNotFound)
		}
	}
	author, err := commitSignature("author", c.Author)
	if err != nil {
		return ZeroHash, err
	}
	committer, err := commitSignature("committer", c.Committer)
	if err != nil {
		return ZeroHash, err
	}
	commit := &object.Commit{Author: author, Committer: committer, Message: c.Message,
		TreeHash: tree, ParentHashes: c.Parents}
	if c.Sign != nil {
		payload, err := encodeCommit(commit.EncodeWithoutSignature)
		if err != nil {
			return ZeroHash, err
		}
		if commit.PGPSignature, err = c.Sign(payload); err != nil {
			return ZeroHash, err
		}
	}
	data, err := encodeCommit(commit.Encode)
	if err != nil {
		return ZeroHash, err
	}
	return r.writeObject(plumbing.CommitObject, data)
}

// encodeCommit returns the bytes encode writes.
func encodeCommit(encode func(plumbing.EncodedObject) error) ([]byte, error) {
	obj := &plumbing.MemoryObject{}
	if err := encode(obj); err != nil {
		return nil, fmt.Errorf("encoding commit: %w", err)
	}
	rd, _ := obj.Reader()
	data, err := io.ReadAll(rd)
	if err != nil {
		return nil, fmt.Errorf("encoding commit: %w", err)
	}
	return data, nil
}

// commitTree checks that a commit's tree is stored, writing the empty
// tree when asked for it.
func (r *Writes) commitTree(tree Hash) (Hash, error) {
	if tree.IsZero() || tree == emptyTree {
		return r.writeTree(nil)
	}
	if !(*Objects)(r).hasObject(tree) {
		return ZeroHash, fmt.Errorf("commit tree %s: %w; write it first", tree, plumbing.ErrObjectNotFound)
	}
	return tree, nil
}

// commitSignature rejects names and emails that would corrupt the commit
// header, and fills a zero time with the current time.
func commitSignature(role string, s object.Signature) (object.Signature, error) {
	if err := checkIdentity(role, s.Name, s.Email); err != nil {
		return s, err
	}
	if s.When.IsZero() {
		s.When = time.Now()
	}
	return s, nil
}

func checkIdentity(role, name, email string) error {
	const bad = "<>\n\r\x00"
	switch {
	case strings.TrimSpace(name) == "":
		return fmt.Errorf("%s name is empty; set user.name with `git config user.name`", role)
	case strings.ContainsAny(name, bad):
		return fmt.Errorf("%s name %q contains <, >, a newline or NUL; fix user.name", role, name)
	case strings.ContainsAny(email, bad):
		return fmt.Errorf("%s email %q contains <, >, a newline or NUL; fix user.email", role, email)
	}
	return nil
}

// Commit reads commit h; the commit returned may be shared with other callers, so it must
// not be changed. Use ReadTree and Commit on the returned ids
// rather than the commit's own Tree and Parents methods, which bypass
// the Repo's locking.
func (r *Objects) Commit(h Hash) (*object.Commit, error) {
	if c, ok := r.commits.get(h); ok {
		return c, nil
	}
	c, err := r.decodeCommit(h)
	if err == nil {
		r.commits.put(h, c)
	}
	return c, err
}

// commitCacheSize bounds the decoded commits a repository keeps, some kilobytes each: a
// thousand commits, a few megabytes. A batch of ten thousand publishes peaks 30 MB lower
// than with four thousand, and runs no slower.
const commitCacheSize = 1 << 10

// commitCache keeps decoded commits: a commit never changes, and the ledger reads the line
// of the publish branch again for each publish of a batch. The commits it returns are shared:
// callers never change them. When full, it starts over.
type commitCache struct {
	mu sync.Mutex
	m  map[Hash]*object.Commit
}

func (c *commitCache) get(h Hash) (*object.Commit, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[h]
	return v, ok
}

func (c *commitCache) put(h Hash, v *object.Commit) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= commitCacheSize {
		c.m = make(map[Hash]*object.Commit)
	}
	c.m[h] = v
}

// decodeCommit reads and decodes commit h.
func (r *Objects) decodeCommit(h Hash) (*object.Commit, error) {
	obj, err := r.commitObject(h)
	if err != nil {
		return nil, err
	}
	c, err := object.DecodeCommit(r.storer, obj)
	if err != nil {
		return nil, fmt.Errorf("commit %s: %w (the object is corrupt; run `git fsck`)", h, err)
	}
	return c, nil
}

// commitObject reads commit h, through the fast reader when the repository has one.
func (r *Objects) commitObject(h Hash) (plumbing.EncodedObject, error) {
	if _, data, ok, err := r.fastRead(plumbing.CommitObject, h, maxCommitSize); ok {
		if err != nil {
			return nil, err
		}
		return memoryObject(plumbing.CommitObject, data), nil
	}
	r.objMu.Lock()
	defer r.objMu.Unlock()
	return r.encodedObject(plumbing.CommitObject, h)
}
