package agentsync

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
)

// checkLockOrigins makes sure every skill of l is a version the channel published: its commit
// lies on the first-parent history of the channel, where only publishes, rollbacks and policy
// commits land, and the skill's folder at that commit is the locked tree. Without it, a lock
// edited by hand could pin any tree the repository holds, such as a candidate nobody approved.
func (r *repo) checkLockOrigins(l *Lock, channel, prefix string) error {
	tip, err := r.Book().ChannelCommit(channel)
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, s := range l.Skills {
		want[s.Commit] = true
	}
	onChannel := map[string]*object.Commit{}
	err = r.Git().History().WalkFirstParent(tip, func(h gitstore.Hash, c *object.Commit) error {
		if want[h.String()] {
			onChannel[h.String()] = c
			if len(onChannel) == len(want) {
				return gitstore.ErrStop
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, s := range l.Skills {
		if err := r.checkLockOrigin(s, onChannel[s.Commit], channel, prefix); err != nil {
			return err
		}
	}
	return nil
}

// checkLockOrigin checks one locked skill against c, its commit on the channel (nil when the
// commit is not on it).
func (r *repo) checkLockOrigin(s LockedSkill, c *object.Commit, channel, prefix string) error {
	if c == nil {
		return fmt.Errorf("%s: skill %s: commit %s is not on the history of the %s channel; a lock pins only published versions: restore the lock from git, or run `skillgit sync --update`",
			LockFileName, s.Name, s.Commit, channel)
	}
	e, ok, err := r.Git().Objects().EntryAt(c.TreeHash, s.dir(prefix))
	if err != nil {
		return err
	}
	if !ok || e.Hash != plumbing.NewHash(s.Tree) {
		return fmt.Errorf("%s: skill %s: tree %s is not the version published at commit %s; restore the lock from git, or run `skillgit sync --update`",
			LockFileName, s.Name, s.Tree, s.Commit)
	}
	return nil
}
