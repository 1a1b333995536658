package ledger

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/sshsig"
)

// SignNamespace is the SSH signature namespace git signs commits for.
const SignNamespace = "git"

// SignerFile is the allowed-signers file of one publish-branch tree; err says why it
// cannot be used.
type SignerFile struct {
	tree gitstore.Hash
	list []sshsig.Signer
	err  error
}

// allowedSigners reads the allowed-signers file from the publish branch, never from a
// candidate, so a candidate cannot list its own signer.
func (b *Book) AllowedSigners() *SignerFile {
	b.signersMu.Lock()
	defer b.signersMu.Unlock()
	if b.signers == nil || b.signers.tree != b.Tree {
		b.signers = b.readAllowedSigners(b.Tree)
	}
	return b.signers
}

func (b *Book) readAllowedSigners(tree gitstore.Hash) *SignerFile {
	label, file := short(b.Branch), b.Config.Approvals.AllowedSigners
	set := &SignerFile{tree: tree}
	data, ok, err := b.Git.FileAt(tree, file, sshsig.MaxAllowedSigners, label)
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
func (b *Book) WithSignature(a Approval, c *object.Commit, at time.Time) Approval {
	if a.Policy != "" || (c.PGPSignature == "" && !b.Config.Approvals.Signed) {
		return a
	}
	if err := b.VerifyCommit(c, at); err != nil {
		a.Unverified = err.Error()
		return a
	}
	a.Signed, a.Signer = true, c.Author.Email
	return a
}

// verifyCommit checks c's SSH signature, made for namespace git by a key the publish branch
// allows for c's author email at time at, or now when at is zero. The time is never the
// commit's own: whoever holds a key after it expired can date a commit as they please.
func (b *Book) VerifyCommit(c *object.Commit, at time.Time) error {
	sig, err := signatureOf(c)
	if err != nil {
		return err
	}
	set := b.AllowedSigners()
	if set.err != nil {
		return set.err
	}
	if at.IsZero() {
		at = time.Now()
	}
	_, err = sshsig.Find(set.list, sig.PublicKey, c.Author.Email, SignNamespace, at)
	return err
}

// keyHolders are the principals the allowed-signers file lists for the key that made c's
// signature, whatever it allows the key to sign; none when c carries no valid signature.
func (b *Book) KeyHolders(c *object.Commit) []string {
	sig, err := signatureOf(c)
	set := b.AllowedSigners()
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
	if err := sig.Verify(payload, SignNamespace); err != nil {
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
