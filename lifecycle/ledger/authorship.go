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
	"github.com/skillgit/skillgit/internal/termtext"
)

// With approvals.signed, who wrote a candidate is told by the signatures of the commits that
// wrote its content, not by their author fields, which anyone can fill in.

// writersOf lists who wrote the candidate's content; no approval may come from them. Without
// signed approvals, they are the Authors of its proposal and revisions (Authors). With them,
// they are also the author of every commit that wrote the content, a rebase that changed it
// included, and everyone the allowed-signers file lists for a key that signed one of those
// commits, whether or not the signature verified for its author: so a writer who signs in
// another's name still cannot approve. The entries are emails or, from the file, principal
// patterns; IsWriter matches them.
func (b *Book) WritersOf(ch *Chain, content []int) []string {
	out := Authors(ch)
	if !b.Config.Approvals.Signed {
		return out
	}
	for _, i := range content {
		c := ch.Commits[i].C
		out = addWriter(out, c.Author.Email)
		for _, p := range b.KeyHolders(c) {
			out = addWriter(out, p)
		}
	}
	return out
}

func addWriter(writers []string, w string) []string {
	if IsWriter(writers, w) {
		return writers
	}
	return append(writers, w)
}

// contentCheck is what the signatures of a candidate's content commits tell, checked at one
// time.
type contentCheck struct {
	// unverified names the commit that leaves the content without a verified writer, and
	// why; empty when there is none.
	unverified string
	// proposer says whether the propose commit's signature verified for its author.
	proposer bool
	// signers holds, for each content commit whose signature verified, its author's email.
	signers map[int]string
}

// checkContent verifies the signature of each content commit at time at (now when zero). A
// content commit that does not verify has no verified writer, and blocks approvals until a
// revision whose signature verifies replaces the skill folder: a revision snapshots the whole
// folder, so its signer answers for all of it. unverified names the first such commit since
// the last verified proposal or revision.
func (b *Book) CheckContent(ch *Chain, content []int, at time.Time) contentCheck {
	out := contentCheck{signers: map[int]string{}}
	for _, i := range content {
		ci := ch.Commits[i]
		err := b.VerifyCommit(ci.C, at)
		switch {
		case err == nil:
			out.signers[i] = ci.C.Author.Email
			if i == 0 || ci.Claims.Get(KeyAction) == ActRevise {
				out.unverified = ""
			}
		case out.unverified == "":
			subject, _, _ := CutSubject(ci.C.Message)
			out.unverified = fmt.Sprintf("commit %s (%q by %s) has no verified signature: %v",
				gitstore.ShortHash(ci.Hash.String()), termtext.Cut(subject, 80), actorOf(ci.C.Author), err)
		}
	}
	_, out.proposer = out.signers[0]
	return out
}

// UnverifiedAdvice says why no approval of c counts while its content has no verified writer,
// and how to give it one.
func UnverifiedAdvice(c *Candidate) string {
	const key = "set a signing key with `git config user.signingkey ~/.ssh/id_ed25519`"
	if c.Change == ChangePolicy {
		return fmt.Sprintf("no approval counts while %s; %s, propose the change again with `skillgit propose --config` and reject %s", c.Unverified, key, c.ID)
	}
	return fmt.Sprintf("no approval counts while %s; %s and revise it with `skillgit revise %s`", c.Unverified, key, c.ID)
}

// DatedBefore reports whether approval commit a claims, by its author or committer date, to
// be older than the content commit it approves: a date no honest clock gives, since the
// approval is a child of that commit.
func DatedBefore(a, content Commit) bool {
	made := content.C.Committer.When
	if content.C.Author.When.After(made) {
		made = content.C.Author.When
	}
	return a.C.Author.When.Before(made) || a.C.Committer.When.Before(made)
}

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
	label, file := gitstore.ShortRef(b.Branch), b.Config.Approvals.AllowedSigners
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
