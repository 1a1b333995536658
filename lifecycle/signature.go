package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/sshsig"
)

// signNamespace is the SSH signature namespace git signs commits for.
const signNamespace = "git"

// approvalSigner returns what signs an approval commit when approvals.signed is true: the
// user's git signing key, as git commit -S uses it with gpg.format=ssh. It is nil when
// approvals need no signature.
func (r *Repo) approvalSigner(id string) (func([]byte) (string, error), error) {
	if !r.Config.Approvals.Signed {
		return nil, nil
	}
	key, err := r.Git.ConfigValue("user", "", "signingkey")
	if err != nil {
		return nil, err
	}
	if key == "" {
		return nil, fmt.Errorf("%s: %w: approvals.signed is true, so an approval must be signed, and no signing key is set; "+
			"set one with `git config user.signingkey ~/.ssh/id_ed25519` (a private key, a public key whose private key is in ssh-agent, or key::ssh-ed25519 AAAA...)", id, ErrRefused)
	}
	program, err := r.Git.ConfigValue("gpg", "ssh", "program")
	if err != nil {
		return nil, err
	}
	return func(payload []byte) (string, error) {
		sig, err := sshsig.Sign(context.Background(), program, key, signNamespace, payload)
		if err != nil {
			return "", fmt.Errorf("%s: %w; user.signingkey must name an SSH key, as for git with gpg.format=ssh", id, err)
		}
		return sig, nil
	}, nil
}

// signerFile is the allowed-signers file of one publish-branch tree; err says why it
// cannot be used.
type signerFile struct {
	tree gitstore.Hash
	list []sshsig.Signer
	err  error
}

// warnUnverified warns when the approval just written does not verify, so it will not count:
// a key the allowed-signers file does not list for the approver, say.
func (r *Repo) warnUnverified(res *Result) error {
	c, err := r.Candidate(res.ID)
	if err != nil {
		return err
	}
	for _, a := range c.Approvals {
		if a.Commit == res.Commit && !a.Signed {
			res.addWarning(fmt.Sprintf("warning: %s: the approval's signature does not verify (%s), so it does not count", res.ID, a.Unverified))
		}
	}
	return nil
}

// allowedSigners reads the allowed-signers file from the publish branch, never from a
// candidate, so a candidate cannot list its own signer.
func (r *Repo) allowedSigners() *signerFile {
	r.signersMu.Lock()
	defer r.signersMu.Unlock()
	if r.signers == nil || r.signers.tree != r.Tree {
		r.signers = r.readAllowedSigners(r.Tree)
	}
	return r.signers
}

func (r *Repo) readAllowedSigners(tree gitstore.Hash) *signerFile {
	label, file := short(r.Branch), r.Config.Approvals.AllowedSigners
	set := &signerFile{tree: tree}
	data, ok, err := r.FileAt(tree, file, sshsig.MaxAllowedSigners, label)
	switch {
	case err != nil:
		set.err = err
	case !ok:
		set.err = fmt.Errorf("%s has no %s", label, file)
	default:
		if set.list, err = sshsig.ParseAllowedSigners(data); err != nil {
			set.err = fmt.Errorf("%s:%s: %w", label, file, err)
		}
	}
	return set
}

// withSignature fills in whether an approval's commit carries a signature that verifies
// against a key the allowed-signers file lists for its author's email.
func (r *Repo) withSignature(a Approval, c *object.Commit) Approval {
	if a.Policy != "" || (c.PGPSignature == "" && !r.Config.Approvals.Signed) {
		return a
	}
	if err := r.verifyCommit(c); err != nil {
		a.Unverified = err.Error()
		return a
	}
	a.Signed, a.Signer = true, c.Author.Email
	return a
}

// verifyCommit checks c's SSH signature, made for namespace git by a key the publish branch
// allows for c's author email at c's commit time.
func (r *Repo) verifyCommit(c *object.Commit) error {
	if c.PGPSignature == "" {
		return errors.New("not signed")
	}
	sig, err := sshsig.Parse([]byte(c.PGPSignature))
	if err != nil {
		return err
	}
	payload, err := signedPayload(c)
	if err != nil {
		return err
	}
	if err := sig.Verify(payload, signNamespace); err != nil {
		return err
	}
	set := r.allowedSigners()
	if set.err != nil {
		return set.err
	}
	_, err = sshsig.Find(set.list, sig.PublicKey, c.Author.Email, signNamespace, c.Committer.When)
	return err
}

// signedPayload is the commit as it was signed: encoded without its signature.
func signedPayload(c *object.Commit) ([]byte, error) {
	obj := &plumbing.MemoryObject{}
	if err := c.EncodeWithoutSignature(obj); err != nil {
		return nil, err
	}
	rd, err := obj.Reader()
	if err != nil {
		return nil, err
	}
	return io.ReadAll(rd)
}
