package ledger

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/lazyregexp"
	"github.com/skillgit/skillgit/internal/sshsig"
)

// The trailer keys of lifecycle commits (DESIGN.md §2.4): what skillgit writes, and what the
// ledger reads as claims.
const (
	KeyAction      = "Skillgit-Action"
	KeySkill       = "Skillgit-Skill"
	KeyCandidate   = "Skillgit-Candidate"
	KeyChange      = "Skillgit-Change"
	KeyPath        = "Skillgit-Path"
	KeyBase        = "Skillgit-Base"
	KeyRisk        = "Skillgit-Risk"
	KeyAudit       = "Skillgit-Audit"
	KeyPolicy      = "Skillgit-Policy"
	KeyChannel     = "Skillgit-Channel"
	KeyMode        = "Skillgit-Mode"
	KeyReverts     = "Skillgit-Reverts"
	KeyVia         = "Skillgit-Via"
	KeyUnattended  = "Skillgit-Unattended"
	KeyAccept      = "Skillgit-Accept"
	KeyPack        = "Skillgit-Pack"
	KeyLenient     = "Skillgit-Lenient"
	KeyPublishedAs = "Skillgit-Published-As"
	KeyManagedBy   = "Skillgit-Managed-By"
	KeyOverlaps    = "Skillgit-Overlaps"
	KeyMergedFrom  = "Skillgit-Merged-From"
	KeyApproved    = "Approved-By"
	KeyRejected    = "Rejected-By"
)

// The actions lifecycle commits claim.
const (
	ActPropose  = "propose"
	ActRevise   = "revise"
	ActApprove  = "approve"
	ActReject   = "reject"
	ActPublish  = "publish"
	ActRollback = "rollback"
	ActRebase   = "rebase"
	ActMode     = "mode"
	ActSync     = "sync"
	ActInit     = "init"
)

// Claims are the trailers of one commit message: what the commit says of itself.
type Claims []gitstore.Trailer

// ParseClaims reads the trailers of msg.
func ParseClaims(msg string) Claims { return Claims(gitstore.ParseTrailers(msg)) }

// Get returns the last value of key, or "".
func (c Claims) Get(key string) string { return gitstore.TrailerValue(c, key) }

// All returns every value of key, in order.
func (c Claims) All(key string) []string {
	var out []string
	for _, t := range c {
		if t.Key == key {
			out = append(out, t.Value)
		}
	}
	return out
}

// revertLine is the line git revert writes into a message; for a merge it goes on with
// ", reversing changes made to ...".
var revertLine = lazyregexp.New(`(?m)^This reverts commit ([0-9a-f]{40})[.,]`)

// RevertTarget is the commit a message says it reverts: its Skillgit-Reverts trailer, else
// the line git revert writes. It is a claim, which VerifyRollback checks.
func RevertTarget(msg string, c Claims) (gitstore.Hash, bool) {
	if v := c.Get(KeyReverts); len(v) == 40 {
		return plumbing.NewHash(v), true
	}
	if m := revertLine().FindStringSubmatch(msg); m != nil {
		return plumbing.NewHash(m[1]), true
	}
	return gitstore.ZeroHash, false
}

// idPattern is what a candidate id looks like: a skill name and a random suffix.
var idPattern = lazyregexp.New(`^[a-z0-9][a-z0-9-]{0,99}$`)

// CheckID refuses an id that cannot name a candidate.
func CheckID(id string) error {
	if !idPattern().MatchString(id) {
		return fmt.Errorf("%q: %w: a candidate id is lowercase letters, digits and hyphens, like pdf-tools-7f3a; `skillgit candidates` lists them", id, ErrNotFound)
	}
	return nil
}

// ClaimedBase is the publish-branch commit the candidate was built on or last rebased onto, as
// its commits claim; chainBase checks the claims.
func ClaimedBase(ch *Chain) gitstore.Hash {
	for i := len(ch.Commits) - 1; i > 0; i-- {
		ci := ch.Commits[i]
		if ci.Claims.Get(KeyAction) == ActRebase && len(ci.C.ParentHashes) == 2 {
			return ci.C.ParentHashes[1]
		}
	}
	if ps := ch.Propose().C.ParentHashes; len(ps) > 0 {
		return ps[0]
	}
	return gitstore.ZeroHash
}

// ContentCommits returns the indexes, in order, of the commits that wrote the candidate's
// content: its propose commit, and each later commit that changed the candidate's folder, or
// that changed anything else other than by `skillgit rebase`. The approvals after the last of
// them are the ones that count, so an approval never outlives a commit that slipped other
// changes onto the branch, even one that `approve` and `publish` would refuse anyway.
func (b *Book) ContentCommits(ch *Chain) ([]int, error) {
	var prev string
	read := false
	out := []int{0}
	for i := 1; i < len(ch.Commits); i++ {
		ci := ch.Commits[i]
		if ci.C.TreeHash == ch.Commits[i-1].C.TreeHash && ci.Claims.Get(KeyAction) != ActRevise {
			continue // an approval, or any commit that keeps the tree, changes nothing
		}
		if !read {
			var err error
			if prev, err = b.ScopeKey(ch, ch.Commits[i-1].C.TreeHash); err != nil {
				return nil, err
			}
			read = true
		}
		cur, err := b.ScopeKey(ch, ci.C.TreeHash)
		if err != nil {
			return nil, err
		}
		if cur != prev || ci.Claims.Get(KeyAction) != ActRebase {
			out = append(out, i)
		}
		prev = cur
	}
	return out, nil
}

// IsWriter reports whether email belongs to one of the candidate's writers; emails compare
// case-insensitively, as git hosts treat them, and a writer may be a principal pattern of
// the allowed-signers file (writersOf).
func IsWriter(writers []string, email string) bool {
	return slices.ContainsFunc(writers, func(w string) bool { return sshsig.MatchPrincipal(w, email) })
}

// ParseAccept reads a Skillgit-Accept trailer: "FP RULE PATH" on an approval, followed by
// " | WHO | REASON" on a publish. Only the fingerprint is required.
func ParseAccept(v string) AcceptedFinding {
	parts := strings.SplitN(v, " | ", 3)
	fields := strings.SplitN(strings.TrimSpace(parts[0]), " ", 3)
	a := AcceptedFinding{Fingerprint: fields[0]}
	if len(fields) > 1 {
		a.Rule = fields[1]
	}
	if len(fields) > 2 {
		a.Path = fields[2]
	}
	if len(parts) > 1 {
		a.By = parts[1]
	}
	if len(parts) > 2 {
		a.Reason = parts[2]
	}
	return a
}

// AcceptsOf reads the acceptances a commit records.
func AcceptsOf(ci Commit) []AcceptedFinding {
	var out []AcceptedFinding
	for _, v := range ci.Claims.All(KeyAccept) {
		if a := ParseAccept(v); a.Fingerprint != "" {
			out = append(out, a)
		}
	}
	return out
}

// ParseOverlap reads a Skillgit-Overlaps trailer back; ok is false for one it cannot read.
func ParseOverlap(v string) (Overlap, bool) {
	f := strings.SplitN(strings.TrimSpace(v), " ", 3)
	if len(f) < 2 {
		return Overlap{}, false
	}
	score, err := strconv.ParseFloat(f[1], 64)
	if err != nil || score < 0 || score > 1 {
		return Overlap{}, false
	}
	o := Overlap{Skill: f[0], Score: score, Duplicate: true}
	if id, ok := strings.CutPrefix(f[0], "candidate/"); ok {
		o.Skill, o.Candidate = "", id
	}
	if len(f) == 3 {
		o.Reason = f[2]
	}
	return o, true
}

// DuplicatesOf reads the likely duplicates a commit recorded.
func DuplicatesOf(ci Commit) []Overlap {
	var out []Overlap
	for _, v := range ci.Claims.All(KeyOverlaps) {
		if o, ok := ParseOverlap(v); ok {
			out = append(out, o)
		}
	}
	return out
}

// PublishedNames are the skills a publish commit made: those its trailers name, with the
// candidate's name replaced by the one it was published as.
func PublishedNames(ci Commit, skills []string) []string {
	as := ci.Claims.Get(KeyPublishedAs)
	if as == "" || len(skills) == 0 {
		return skills
	}
	out := slices.Clone(skills)
	out[0] = as
	return out
}
