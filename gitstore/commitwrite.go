package gitstore

import (
	"fmt"
	"io"
	"strings"
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
