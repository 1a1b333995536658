package lifecycle

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
)

// The trailer keys of lifecycle commits (DESIGN.md §2.4).
const (
	keyAction    = "Skillgit-Action"
	keySkill     = "Skillgit-Skill"
	keyCandidate = "Skillgit-Candidate"
	keyChange    = "Skillgit-Change"
	keyPath      = "Skillgit-Path"
	keyBase      = "Skillgit-Base"
	keyRisk      = "Skillgit-Risk"
	keyAudit     = "Skillgit-Audit"
	keyPolicy    = "Skillgit-Policy"
	keyChannel   = "Skillgit-Channel"
	keyMode      = "Skillgit-Mode"
	keyReverts   = "Skillgit-Reverts"
	keyVia       = "Skillgit-Via"
	// keyUnattended marks a commit that an unattended actor (MCP, or --unattended) made.
	keyUnattended = "Skillgit-Unattended"
	keyAccept     = "Skillgit-Accept"
	keyPack       = "Skillgit-Pack"
	keyLenient    = "Skillgit-Lenient"
	// keyPublishedAs names the skill a publish made of a candidate published under another
	// name; Skillgit-Skill keeps the name the candidate proposed.
	keyPublishedAs = "Skillgit-Published-As"
	keyApproved    = "Approved-By"
	keyRejected    = "Rejected-By"
)

// The actions lifecycle commits record.
const (
	actPropose  = "propose"
	actRevise   = "revise"
	actApprove  = "approve"
	actReject   = "reject"
	actPublish  = "publish"
	actRollback = "rollback"
	actRebase   = "rebase"
	actMode     = "mode"
	actSync     = "sync"
)

// trailerList builds trailers in order, skipping empty values.
type trailerList []gitstore.Trailer

func (ts trailerList) add(key, value string) trailerList {
	if value == "" {
		return ts
	}
	return append(ts, gitstore.Trailer{Key: key, Value: value})
}

// message renders a commit message with the trailers, adding Skillgit-Via when set and
// Skillgit-Unattended when no person is behind the action.
func (ts trailerList) message(subject, body string, o ActOptions) string {
	ts = ts.add(keyVia, o.Via)
	if o.Unattended {
		ts = ts.add(keyUnattended, "true")
	}
	return gitstore.FormatMessage(subject, body, ts)
}

// commitInfo is a commit with its trailers parsed.
type commitInfo struct {
	hash     gitstore.Hash
	c        *object.Commit
	trailers []gitstore.Trailer
}

func (ci commitInfo) get(key string) string { return gitstore.TrailerValue(ci.trailers, key) }

// all returns every value of a trailer key, in order.
func (ci commitInfo) all(key string) []string {
	var out []string
	for _, t := range ci.trailers {
		if t.Key == key {
			out = append(out, t.Value)
		}
	}
	return out
}

func (r *Repo) commitInfo(h gitstore.Hash) (commitInfo, error) {
	c, err := r.Git.Commit(h)
	if err != nil {
		return commitInfo{}, fmt.Errorf("commit %s: %w", h, err)
	}
	return commitInfo{hash: h, c: c, trailers: gitstore.ParseTrailers(c.Message)}, nil
}

// WriteCommit writes a commit by sig with the given tree, parents and message.
func (r *Repo) WriteCommit(sig object.Signature, tree gitstore.Hash, msg string, parents ...gitstore.Hash) (gitstore.Hash, error) {
	return r.Git.WriteCommit(gitstore.CommitSpec{Tree: tree, Parents: parents, Author: sig, Committer: sig, Message: msg})
}

// writeSignedCommit writes a commit like writeCommit, signed by sign when it is not nil.
func (r *Repo) writeSignedCommit(sig object.Signature, tree gitstore.Hash, msg string, sign func([]byte) (string, error), parents ...gitstore.Hash) (gitstore.Hash, error) {
	return r.Git.WriteCommit(gitstore.CommitSpec{Tree: tree, Parents: parents, Author: sig, Committer: sig, Message: msg, Sign: sign})
}
