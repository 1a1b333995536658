package ledger

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"golang.org/x/crypto/ssh"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/sshsig"
)

// An application project cannot count on the skill repository's server to guard its publish
// branch: most hosted git runs no pre-receive hook, so whoever can push can put anything on
// it. VerifyInstall is the check the installer makes instead, from the history alone and with
// keys the project chose, never with the repository's own allowed-signers file, which a push
// could change too.

// Trust is whom an application project trusts to approve what it installs.
type Trust struct {
	// Signers are the keys of the project's allowed-signers file.
	Signers []sshsig.Signer
	// Need is how many people must have approved, each with a signature by one of Signers.
	Need int
	// File names the allowed-signers file, for messages.
	File string
	// Now, when set, is the time of the install, at which a key must be valid too: a
	// commit's date is whatever its maker wrote, so a publish dated back into the time of a
	// key the project has since ended would otherwise count. A version pinned earlier, and
	// verified then, is checked without it.
	Now time.Time
	// Proven are publishes proved before under the same signers and count, by publish: a
	// publish never changes, so its approvals need not be read and checked again. Each key of
	// a proof is checked again against Signers (and Now) before the proof is used; a proof
	// that fails that is proved anew.
	Proven map[gitstore.Hash]InstallProof
}

// InstallProof is why a version of a skill may be installed.
type InstallProof struct {
	// Publish is the publish that put the version on the channel, and Root its root tree.
	Publish, Root gitstore.Hash
	// Approvers are the people whose signed approvals counted, and Keys the fingerprints
	// (SHA256:…) of the keys they signed with, in the same order.
	Approvers []string
	Keys      []string
}

// maxRollbackHops bounds how far back through rollbacks a version is traced to its publish.
const maxRollbackHops = 64

// VerifyInstall checks that skill name's folder, as of commit at of a channel, was put there
// by a publish (or a rollback to one) whose candidate carries approvals by t.Need people,
// each signed by a key of t.Signers for that person's email, none of whom wrote the content.
// The error says, for each approval that did not count, why.
func (b *Book) VerifyInstall(at gitstore.Hash, name string, t Trust) (InstallProof, error) {
	return b.newVerifier(t).verify(at, name, nil)
}

// VerifyInstalls is VerifyInstall for many skills at the same commit: one walk of the
// history finds the last change of every one, and a publish that carried many of them has
// its approvals checked once. It returns, per name, the proof or the error.
func (b *Book) VerifyInstalls(at gitstore.Hash, names []string, t Trust) (map[string]InstallProof, map[string]error) {
	proofs, errs := map[string]InstallProof{}, map[string]error{}
	pending := make(map[string]bool, len(names))
	for _, n := range names {
		pending[n] = true
	}
	last := map[string]change{}
	err := b.Trail().WalkLastChanges(at, pending, func(name string, e LogEntry, c *object.Commit) {
		last[name] = change{plumbing.NewHash(e.Commit), c}
	})
	v := b.newVerifier(t)
	for _, n := range names {
		if err != nil {
			errs[n] = err
			continue
		}
		first, ok := last[n]
		if !ok {
			first = change{} // no commit changed it: verify says so
		}
		if p, err := v.verify(at, n, &first); err != nil {
			errs[n] = err
		} else {
			proofs[n] = p
		}
	}
	return proofs, errs
}

// change is the commit that last changed a skill's folder; a nil c for none.
type change struct {
	h gitstore.Hash
	c *object.Commit
}

// verifier verifies installs for one trust, proving each publish's approvals once.
type verifier struct {
	b      *Book
	t      Trust
	proved map[gitstore.Hash]proved
}

// proved is the outcome of proving one publish's approvals.
type proved struct {
	proof InstallProof
	err   error
}

func (b *Book) newVerifier(t Trust) *verifier {
	return &verifier{b: b, t: t, proved: map[gitstore.Hash]proved{}}
}

// verify traces skill name from commit at back to the publish that put it there, through any
// rollbacks, and proves that publish's approvals. first, when not nil, is the last change of
// the skill as of at, found already.
func (v *verifier) verify(at gitstore.Hash, name string, first *change) (InstallProof, error) {
	from := at
	for range maxRollbackHops {
		var lc change
		if first != nil {
			lc, first = *first, nil
		} else {
			h, c, err := v.b.lastChangeOf(from, name)
			if err != nil {
				return InstallProof{}, err
			}
			lc = change{h, c}
		}
		if lc.c == nil {
			return InstallProof{}, fmt.Errorf("no publish on the channel put %s there", name)
		}
		st, err := v.b.ledger().StepOf(lc.h, lc.c)
		if err != nil {
			return InstallProof{}, err
		}
		switch st.Kind {
		case KindPublish:
			return v.prove(lc.h, lc.c)
		case KindRollback:
			undone, err := v.b.Git.Commit(st.Undoes)
			if err != nil || len(undone.ParentHashes) == 0 {
				return InstallProof{}, fmt.Errorf("rollback %s undoes %s, which the repository does not hold", shortHash(lc.h), shortHash(st.Undoes))
			}
			from = undone.ParentHashes[0] // the version the rollback restored
		case KindInit:
			return InstallProof{}, fmt.Errorf("it was put there by %s, skillgit init's built-in skills, which no one approved", shortHash(lc.h))
		default:
			return InstallProof{}, fmt.Errorf("its last change is commit %s, %s", shortHash(lc.h), notPublished(st, lc.c))
		}
	}
	return InstallProof{}, fmt.Errorf("more than %d rollbacks back from %s; it cannot be traced to a publish", maxRollbackHops, shortHash(at))
}

// prove proves the approvals of publish h, once per verifier, taking a proof of t.Proven
// whose keys still hold.
func (v *verifier) prove(h gitstore.Hash, c *object.Commit) (InstallProof, error) {
	if p, ok := v.proved[h]; ok {
		return p.proof, p.err
	}
	if p, ok := v.t.Proven[h]; ok && p.Publish == h && p.Root == c.TreeHash && v.t.holds(p) {
		v.proved[h] = proved{p, nil}
		return p, nil
	}
	proof, err := v.b.proveApprovals(h, c, v.t)
	v.proved[h] = proved{proof, err}
	return proof, err
}

// notPublished says why a commit that changed a skill, of step st, is no publish.
func notPublished(st *Step, c *object.Commit) string {
	why := "made with git, not by a publish"
	if a := ParseClaims(c.Message).Get(KeyAction); a != "" && st.Unverified == "" {
		why = "which claims to be a " + a + " commit, and no " + a + " changes a skill: it is no publish"
	}
	switch {
	case st.Unverified != "" && st.Claim != "":
		why = "which claims to be a " + st.Claim + " but is not one: " + st.Unverified
	case st.Unverified != "":
		why = "made with git, not by a publish: " + st.Unverified
	}
	return why
}

// lastChangeOf returns the commit of the first-parent line of from that last changed skill
// name's folder, or a nil commit when none did.
func (b *Book) lastChangeOf(from gitstore.Hash, name string) (gitstore.Hash, *object.Commit, error) {
	var h gitstore.Hash
	var found *object.Commit
	err := b.Trail().WalkLastChanges(from, map[string]bool{name: true}, func(_ string, e LogEntry, c *object.Commit) {
		h, found = plumbing.NewHash(e.Commit), c
	})
	return h, found, err
}

// proveApprovals checks the approvals of the candidate that publish h merged.
func (b *Book) proveApprovals(h gitstore.Hash, c *object.Commit, t Trust) (InstallProof, error) {
	if len(c.ParentHashes) != 2 {
		return InstallProof{}, fmt.Errorf("publish %s merges no candidate", shortHash(h))
	}
	ch, err := chainAt(b.Git, c.ParentHashes[1])
	if err != nil {
		return InstallProof{}, fmt.Errorf("publish %s: %w", shortHash(h), err)
	}
	last, err := ch.LastContent(b.Git, b.Config.SkillsDir)
	if err != nil {
		return InstallProof{}, err
	}
	writers := trustedWriters(ch, last, t)
	approvals, err := ch.Approvals(b.Git, b.Config.SkillsDir)
	if err != nil {
		return InstallProof{}, err
	}
	proof := InstallProof{Publish: h, Root: c.TreeHash}
	var refused []string
	for _, a := range approvals {
		who, key, why := countsFor(a, ch.Commits[last], writers, t, c)
		switch {
		case why != "":
			refused = append(refused, a.C.Author.Name+" <"+a.C.Author.Email+"> ("+why+")")
		case !slices.Contains(proof.Approvers, who):
			proof.Approvers, proof.Keys = append(proof.Approvers, who), append(proof.Keys, key)
		}
	}
	if len(proof.Approvers) >= t.Need {
		return proof, nil
	}
	msg := fmt.Sprintf("publish %s (candidate %s) has %d approval(s) signed by a key of %s and needs %d", shortHash(h), ch.ID, len(proof.Approvers), t.File, t.Need)
	if len(refused) > 0 {
		msg += "; not counted: " + strings.Join(refused, ", ")
	}
	return InstallProof{}, errors.New(msg)
}

// trustedWriters are who wrote the candidate's content, as the project sees it: the authors
// of its proposal and revisions, and everyone the project's allowed-signers file lists for a
// key that signed one of them.
func trustedWriters(ch *Chain, last int, t Trust) []string {
	writers := Authors(ch)
	for _, ci := range ch.Commits[:last+1] {
		writers = addWriter(writers, ci.C.Author.Email)
		if sig, err := signatureOf(ci.C); err == nil {
			for _, p := range sshsig.Holders(t.Signers, sig.PublicKey) {
				writers = addWriter(writers, p)
			}
		}
	}
	return writers
}

// countsFor says whether approval a counts for the project: it returns the approver and the
// fingerprint of the key, or why it does not count. Keys are checked as of the publish merge
// that carried the candidate, never at a time the approval itself claims, and at t.Now when
// it is set.
func countsFor(a Commit, content Commit, writers []string, t Trust, publish *object.Commit) (who, key, why string) {
	if m := a.Claims.Get(KeyPolicy); m != "" {
		return "", "", "approved by the " + m + " mode, not by a person"
	}
	email := a.C.Author.Email
	if IsWriter(writers, email) {
		return "", "", "wrote the candidate"
	}
	sig, err := signatureOf(a.C)
	if err != nil {
		return "", "", err.Error()
	}
	if _, err := sshsig.Find(t.Signers, sig.PublicKey, email, SignNamespace, publish.Committer.When); err != nil {
		return "", "", err.Error()
	}
	if !t.Now.IsZero() {
		if _, err := sshsig.Find(t.Signers, sig.PublicKey, email, SignNamespace, t.Now); err != nil {
			return "", "", "at install time, " + err.Error()
		}
	}
	for _, p := range sshsig.Holders(t.Signers, sig.PublicKey) {
		if IsWriter(writers, p) {
			return "", "", "signed with a key of a writer of the candidate"
		}
	}
	if DatedBefore(a, content) {
		return "", "", "dated before the content it approves"
	}
	return strings.ToLower(email), ssh.FingerprintSHA256(sig.PublicKey), ""
}

// holds reports whether a proof made earlier still meets t: enough distinct approvers, each
// with a key that the signers still allow for that approver, now too when Now is set.
func (t Trust) holds(p InstallProof) bool {
	if len(p.Approvers) < t.Need || len(p.Keys) != len(p.Approvers) {
		return false
	}
	for i, who := range p.Approvers {
		if slices.Index(p.Approvers, who) != i || !t.allows(who, p.Keys[i]) {
			return false
		}
	}
	return true
}

// allows reports whether a signer entry lets the key whose fingerprint is fp sign for who.
func (t Trust) allows(who, fp string) bool {
	for _, s := range t.Signers {
		if ssh.FingerprintSHA256(s.Key) != fp {
			continue
		}
		if _, err := sshsig.Find(t.Signers, s.Key, who, SignNamespace, cmp.Or(t.Now, time.Now())); err == nil {
			return true
		}
	}
	return false
}
