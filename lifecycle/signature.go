package lifecycle

import (
	"context"
	"fmt"
	"time"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/sshsig"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// signer returns what signs the commits skillgit writes on a candidate when
// approvals.signed is true: its proposal, revisions, rebases and approvals, each with the
// user's git signing key, as git commit -S uses it with gpg.format=ssh. It is nil when
// approvals need no signature. what names the commit in the refusal when no key is set,
// such as "an approval".
func (t *tx) signer(id, what string) (signer, error) {
	r := t.r
	if !r.cfg.Approvals.Signed {
		return nil, nil
	}
	key, err := r.git.ConfigValue("user", "", "signingkey")
	if err != nil {
		return nil, err
	}
	if key == "" {
		return nil, fmt.Errorf("%s: %w: approvals.signed is true, so %s must be signed, and no signing key is set; "+
			"set one with `git config user.signingkey ~/.ssh/id_ed25519` (a private key, a public key whose private key is in ssh-agent, or key::ssh-ed25519 AAAA...)", id, ErrRefused, what)
	}
	program, err := r.git.ConfigValue("gpg", "ssh", "program")
	if err != nil {
		return nil, err
	}
	return func(payload []byte) (string, error) {
		sig, err := sshsig.Sign(context.Background(), program, key, ledger.SignNamespace, payload)
		if err != nil {
			return "", fmt.Errorf("%s: %w; user.signingkey must name an SSH key, as for git with gpg.format=ssh", id, err)
		}
		return sig, nil
	}, nil
}

// warnUnverified warns when the approval just written does not verify, so it will not count:
// a key the allowed-signers file does not list for the approver, say.
func (t *tx) warnUnverified(res *Result) error {
	c, err := t.r.book().Candidate(res.ID)
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
func (t *tx) warnUnverifiedContent(res *Result, h gitstore.Hash) {
	c, err := t.r.git.Objects().Commit(h)
	if err != nil {
		return
	}
	if err := t.r.book().VerifyCommit(c, time.Time{}); err != nil {
		res.addWarning(fmt.Sprintf("warning: %s: the commit's signature does not verify for %s (%v), so no approval counts until a revision signed with a key the allowed-signers file lists for its author replaces it",
			res.ID, c.Author.Email, err))
	}
}
