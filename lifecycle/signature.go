package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/sshsig"
)

// signNamespace is the SSH signature namespace git signs commits for.
const signNamespace = "git"

// commitSigner returns what signs the commits skillgit writes on a candidate when
// approvals.signed is true: its proposal, revisions, rebases and approvals, each with the
// user's git signing key, as git commit -S uses it with gpg.format=ssh. It is nil when
// approvals need no signature. what names the commit in the refusal when no key is set,
// such as "an approval".
func (r *Repo) commitSigner(id, what string) (func([]byte) (string, error), error) {
	if !r.Config.Approvals.Signed {
		return nil, nil
	}
	key, err := r.Git.ConfigValue("user", "", "signingkey")
	if err != nil {
		return nil, err
	}
	if key == "" {
		return nil, fmt.Errorf("%s: %w: approvals.signed is true, so %s must be signed, and no signing key is set; "+
			"set one with `git config user.signingkey ~/.ssh/id_ed25519` (a private key, a public key whose private key is in ssh-agent, or key::ssh-ed25519 AAAA...)", id, ErrRefused, what)
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

// warnUnverifiedContent warns when the content commit h just written does not verify, for a
// key the allowed-signers file does not list for its author, say: no approval counts until a
// revision whose signature verifies replaces it.
func (r *Repo) warnUnverifiedContent(res *Result, h gitstore.Hash) {
	c, err := r.Git.Commit(h)
	if err != nil {
		return
	}
	if err := r.verifyCommit(c, time.Time{}); err != nil {
		res.addWarning(fmt.Sprintf("warning: %s: the commit's signature does not verify for %s (%v), so no approval counts until a revision signed with a key the allowed-signers file lists for its author replaces it",
			res.ID, c.Author.Email, err))
	}
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

// withSignature fills in whether an approval's commit carries a signature that verifies at
// time at against a key the allowed-signers file lists for its author's email.
func (r *Repo) withSignature(a Approval, c *object.Commit, at time.Time) Approval {
	if a.Policy != "" || (c.PGPSignature == "" && !r.Config.Approvals.Signed) {
		return a
	}
	if err := r.verifyCommit(c, at); err != nil {
		a.Unverified = err.Error()
		return a
	}
	a.Signed, a.Signer = true, c.Author.Email
	return a
}

// verifyCommit checks c's SSH signature, made for namespace git by a key the publish branch
// allows for c's author email at time at, or now when at is zero. The time is never the
// commit's own: whoever holds a key after it expired can date a commit as they please.
func (r *Repo) verifyCommit(c *object.Commit, at time.Time) error {
	sig, err := signatureOf(c)
	if err != nil {
		return err
	}
	set := r.allowedSigners()
	if set.err != nil {
		return set.err
	}
	if at.IsZero() {
		at = time.Now()
	}
	_, err = sshsig.Find(set.list, sig.PublicKey, c.Author.Email, signNamespace, at)
	return err
}

// keyHolders are the principals the allowed-signers file lists for the key that made c's
// signature, whatever it allows the key to sign; none when c carries no valid signature.
func (r *Repo) keyHolders(c *object.Commit) []string {
	sig, err := signatureOf(c)
	set := r.allowedSigners()
	if err != nil || set.err != nil {
		return nil
	}
	return sshsig.Holders(set.list, sig.PublicKey)
}

// signatureOf reads c's SSH signature and checks that it was made over c for namespace git.
func signatureOf(c *object.Commit) (*sshsig.Signature, error) {
	if c.PGPSignature == "" {
		return nil, errors.New("not signed")
	}
	sig, err := sshsig.Parse([]byte(c.PGPSignature))
	if err != nil {
		return nil, err
	}
	payload, err := signedPayload(c)
	if err != nil {
		return nil, err
	}
	if err := sig.Verify(payload, signNamespace); err != nil {
		return nil, err
	}
	return sig, nil
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
