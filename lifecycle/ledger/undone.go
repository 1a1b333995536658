package ledger

import (
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/gitstore"
)

// undoKey names one skill's share of a commit on the publish branch.
type undoKey struct {
	commit gitstore.Hash
	skill  string
}

// UndoneSet follows the trail newest first and records which commits' changes to which
// skills a later rollback undid, and by which rollback. A rollback that was itself undone
// (a git revert of it) undoes nothing, so what it reverted is in effect again.
type UndoneSet map[undoKey]string

// see takes the next older entry of the trail, the commit h with message msg.
func (u UndoneSet) See(h gitstore.Hash, e LogEntry, msg string) {
	if e.Action != ActRollback {
		return
	}
	target, ok := revertedCommit(msg)
	if !ok {
		return
	}
	for _, s := range e.Skills {
		if _, void := u[undoKey{h, s}]; void {
			continue
		}
		u[undoKey{target, s}] = h.String()
	}
}

// by returns the rollback that undid skill's share of commit h, or "".
func (u UndoneSet) By(h gitstore.Hash, skill string) string { return u[undoKey{h, skill}] }

// revertedCommit reads which commit a rollback undoes: its Skillgit-Reverts trailer, or the
// line git revert writes.
func revertedCommit(msg string) (gitstore.Hash, bool) {
	if v := ParseClaims(msg).Get(KeyReverts); v != "" {
		return plumbing.NewHash(v), true
	}
	if m := revertLine().FindStringSubmatch(msg); m != nil {
		return plumbing.NewHash(m[1]), true
	}
	return gitstore.Hash{}, false
}
