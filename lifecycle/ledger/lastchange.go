package ledger

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
func (t Trail) LastChanges(from gitstore.Hash, names []string) (map[string]LastChange, error) {
	out := map[string]LastChange{}
	pending := map[string]bool{}
	for _, n := range names {
		pending[n] = true
	}
	err := t.WalkLastChanges(from, pending, func(n string, e LogEntry, _ *object.Commit) {
		out[n] = LastChange{Commit: e.Commit, Action: e.Action, Risk: e.Risk, ApprovedBy: e.ApprovedBy}
	})
	return out, err
}

// walkLastChanges reads the first-parent history of from, newest first, and calls found once
// for each skill of pending with the commit that last changed its folder (a publish, a
// rollback or a commit made with git) and that commit's trail entry; it stops as soon as none
// is pending, and empties pending as it goes.
func (t Trail) WalkLastChanges(from gitstore.Hash, pending map[string]bool, found func(name string, e LogEntry, c *object.Commit)) error {
	if len(pending) == 0 {
		return nil
	}
	tc := t.TrailCache()
	err := t.b.Git.WalkFirstParent(from, func(h gitstore.Hash, c *object.Commit) error {
		e, err := t.EntryOf(h, c, tc)
		if err != nil {
			return err
		}
		if e.Action != ActPublish && e.Action != ActRollback && e.Action != "commit" {
			// Only a publish or a rollback changes a skill on a channel, and any other action a
			// commit claims is only a claim: what it changed is read from the trees, so that a
			// commit calling itself a mode change that edits a skill is still its last change.
			e.Skills, err = t.plainChanges(Commit{Hash: h, C: c}, tc)
			if err != nil {
				return err
			}
		}
		for _, n := range e.Skills {
			if pending[n] {
				delete(pending, n)
				found(n, e, c)
			}
		}
		if len(pending) == 0 {
			return gitstore.ErrStop
		}
		return nil
	})
	tc.Save()
	t.b.ledger().Save()
	return err
}

// ChannelCommit returns the commit a channel, main or canary, is at; canary is the publish
// branch until a canary publish creates it.
func (b *Book) ChannelCommit(channel string) (gitstore.Hash, error) {
	switch channel {
	case "main":
		return b.Tip, nil
	case "canary":
	default:
		return gitstore.ZeroHash, fmt.Errorf("channel %q is not one of main, canary", channel)
	}
	tip, err := b.Git.Ref(canaryRef)
	if errors.Is(err, gitstore.ErrRefNotFound) {
		return b.Tip, nil
	}
	return tip, err
}
