package ledger

import (
	"regexp"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/gitstore"
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
var revertLine = regexp.MustCompile(`(?m)^This reverts commit ([0-9a-f]{40})[.,]`)

// RevertTarget is the commit a message says it reverts: its Skillgit-Reverts trailer, else
// the line git revert writes. It is a claim, which VerifyRollback checks.
func RevertTarget(msg string, c Claims) (gitstore.Hash, bool) {
	if v := c.Get(KeyReverts); len(v) == 40 {
		return plumbing.NewHash(v), true
	}
	if m := revertLine.FindStringSubmatch(msg); m != nil {
		return plumbing.NewHash(m[1]), true
	}
	return gitstore.ZeroHash, false
}
