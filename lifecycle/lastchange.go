package lifecycle

import (
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
)

// LastChange is the commit of a channel's history that last changed a skill's folder.
type LastChange struct {
	// Commit is the commit's id.
	Commit string
	// Action is what the commit did: publish, rollback, commit, ...
	Action string
	// Risk is the audit risk the commit records, when it records one.
	Risk string
	// ApprovedBy lists the approvers of a publish.
	ApprovedBy []string
}

// LastChanges tells, for each skill named (by folder name), the commit that last changed its
// folder on the first-parent history of from. The history is read back only until every
// named skill is found; a skill no commit changed is left out.
func (r *Repo) LastChanges(from gitstore.Hash, names []string) (map[string]LastChange, error) {
	out := map[string]LastChange{}
	todo := map[string]bool{}
	for _, n := range names {
		todo[n] = true
	}
	if len(todo) == 0 {
		return out, nil
	}
	tc := r.trailCache()
	err := r.Git.WalkFirstParent(from, func(h gitstore.Hash, c *object.Commit) error {
		e := r.entryOf(h, c, tc)
		for _, n := range e.Skills {
			if !todo[n] {
				continue
			}
			delete(todo, n)
			out[n] = LastChange{Commit: e.Commit, Action: e.Action, Risk: e.Risk, ApprovedBy: e.ApprovedBy}
		}
		if len(todo) == 0 {
			return gitstore.ErrStop
		}
		return nil
	})
	tc.save()
	return out, err
}

// ChannelCommit returns the commit a channel, main or canary, is at; canary is the publish
// branch until a canary publish creates it.
func (r *Repo) ChannelCommit(channel string) (gitstore.Hash, error) {
	switch channel {
	case "main":
		return r.Tip, nil
	case "canary":
	default:
		return gitstore.ZeroHash, fmt.Errorf("channel %q is not one of main, canary", channel)
	}
	tip, err := r.Git.Ref(canaryRef)
	if errors.Is(err, gitstore.ErrRefNotFound) {
		return r.Tip, nil
	}
	return tip, err
}
