package ledger

import (
	"fmt"
	"time"
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
				shortID(ci.Hash.String()), bounded(subject, 80), actorOf(ci.C.Author), err)
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
