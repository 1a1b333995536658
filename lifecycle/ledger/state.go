package ledger

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// StateCtx is what deciding candidates' states needs from the channels, read once per listing.
type StateCtx struct {
	mainTree   gitstore.Hash
	canaryTree gitstore.Hash // zero when there is no canary branch
	// merged maps the second parents of recent merges on the publish branch to the latest
	// merge of each.
	merged hashLayers
	// reverted maps the recent commits of the publish branch that a later commit reverted,
	// and that revert was not itself reverted, to that revert.
	reverted hashLayers
	since    time.Time
	// commits and changed hold, for the reverted commits looked at so far, the commit and
	// the folders of the skills folder it changed against its first parent.
	commits map[gitstore.Hash]*object.Commit
	changed map[gitstore.Hash][]string
}

// commit reads commit h once for every candidate.
func (st *StateCtx) commit(b *Book, h gitstore.Hash) (*object.Commit, error) {
	if c, ok := st.commits[h]; ok {
		return c, nil
	}
	c, err := b.Git.Commit(h)
	if err != nil {
		return nil, err
	}
	if st.commits == nil {
		st.commits = map[gitstore.Hash]*object.Commit{}
	}
	st.commits[h] = c
	return c, nil
}

// newStateCtx reads the channels; merges on the publish branch are collected back to since,
// unless since is zero: acting on one candidate needs only its folder compared, which tells a
// published candidate from one that can still be published.
func (b *Book) NewStateCtx(since time.Time) (*StateCtx, error) {
	st := &StateCtx{mainTree: b.Tree, merged: newHashLayers(), reverted: newHashLayers(), since: since}
	if h, err := b.Git.Ref(canaryRef); err == nil {
		c, err := b.Git.Commit(h)
		if err != nil {
			return nil, err
		}
		st.canaryTree = c.TreeHash
	} else if !errors.Is(err, gitstore.ErrRefNotFound) {
		return nil, err
	}
	if since.IsZero() {
		return st, nil
	}
	// The last walk, when this one meets its tip, holds the rest. A revert met on the way
	// may change how older commits read, so then the walk goes on alone.
	prev, reached := b.ledger().lastWalk(since), false
	err := b.Git.WalkFirstParent(b.Tip, func(h gitstore.Hash, c *object.Commit) error {
		if prev != nil && h == prev.tip {
			reached = true
			return gitstore.ErrStop
		}
		if c.Committer.When.Before(since) {
			return gitstore.ErrStop
		}
		if len(c.ParentHashes) != 2 && len(RevertTargets(c.Message)) > 0 {
			prev = nil
		}
		return b.learnStep(st, h, c)
	})
	b.ledger().Save()
	if err != nil && !errors.Is(err, gitstore.ErrStop) {
		return nil, err
	}
	walk := &stateWalk{tip: b.Tip, since: since}
	if reached {
		walk.since = prev.since
	} else {
		prev = &stateWalk{}
	}
	// What the last walk found lies below the commits this one read, whose entries win.
	st.merged, st.reverted = st.merged.over(prev.merged), st.reverted.over(prev.reverted)
	walk.merged, walk.reverted = st.merged, st.reverted
	b.ledger().rememberWalk(walk)
	return st, nil
}

// learnStep records what commit h of the publish branch did to candidates: the publish of one
// (a merge the ledger verified), or the rollback of a publish (a rollback it verified). A
// revert of a commit that is no publish, such as a squash merge, is taken at its word: it
// only tells the state of the candidates whose content that commit brought.
func (b *Book) learnStep(st *StateCtx, h gitstore.Hash, c *object.Commit) error {
	if len(c.ParentHashes) == 2 {
		step, err := b.ledger().StepOf(h, c)
		if err != nil {
			return err
		}
		if _, seen := st.merged.own[c.ParentHashes[1]]; !seen && step.Kind == KindPublish {
			st.merged.own[c.ParentHashes[1]] = h
		}
		return nil
	}
	targets := RevertTargets(c.Message)
	if len(targets) == 0 {
		return nil
	}
	step, err := b.ledger().StepOf(h, c)
	if err != nil {
		return err
	}
	for _, x := range targets {
		if _, seen := st.reverted.own[x]; seen {
			continue
		}
		if step.Kind == KindRollback && step.Undoes == x {
			st.reverted.own[x] = h
			continue
		}
		pub, err := b.ledger().Step(x)
		if gitstore.IsObjectError(err) && b.hasCommit(x) {
			return err // the commit is there, its trees are not: what it was is unknown
		}
		if err == nil && pub.Kind != KindPublish && pub.Kind != KindRollback && len(pub.Commit.C.ParentHashes) == 1 {
			st.reverted.own[x] = h
		}
	}
	return nil
}

// touches reports whether commit target (c) changed folder p, or a folder above or below it,
// against its first parent. The folders it changed are found once per commit and shared by
// every candidate; when they cannot be found it says yes, so the caller looks closer.
func (b *Book) touches(st *StateCtx, target gitstore.Hash, c *object.Commit, p string) bool {
	if st.changed == nil {
		st.changed = map[gitstore.Hash][]string{}
	}
	paths, ok := st.changed[target]
	if !ok {
		parent, err := b.Git.Commit(c.ParentHashes[0])
		if err != nil {
			return true
		}
		changes, stray, err := b.FolderChanges(parent.TreeHash, c.TreeHash)
		if err != nil {
			return true
		}
		for _, f := range changes {
			paths = append(paths, f.Path)
		}
		paths = append(paths, stray...)
		st.changed[target] = paths
	}
	p = path.Clean(p)
	for _, q := range paths {
		if q == p || strings.HasPrefix(q, p+"/") || strings.HasPrefix(p, q+"/") {
			return true
		}
	}
	return false
}

// RevertTargets returns the commits msg says it reverts: its "This reverts commit" lines and
// its Skillgit-Reverts trailers.
func RevertTargets(msg string) []gitstore.Hash {
	if !strings.Contains(msg, "This reverts commit") && !strings.Contains(msg, KeyReverts) {
		return nil
	}
	var out []gitstore.Hash
	for _, m := range revertLine().FindAllStringSubmatch(msg, -1) {
		out = append(out, plumbing.NewHash(m[1]))
	}
	for _, v := range ParseClaims(msg).All(KeyReverts) {
		if len(v) == 40 {
			out = append(out, plumbing.NewHash(v))
		}
	}
	return out
}

// state derives a candidate's state: rejected in the archive; published when the publish
// branch merged its own tip (skillgit or git merge), or, for squash and rebase merges, when
// the candidate was approved and the branch holds its skill folder as its tip has it; rolled
// back when the merge of its tip was reverted since (skillgit rollback or git revert); canary
// likewise on the canary branch; else approved or open by the policy. A candidate nobody
// approved is never published by another candidate that published the same content.
func (b *Book) State(ch *Chain, c *Candidate, st *StateCtx) (State, string, error) {
	if strings.HasPrefix(ch.Ref, ArchivePrefix) || ch.Rejected() {
		return StateRejected, "", nil
	}
	if m, ok := st.merged.get(ch.Tip); ok {
		if _, undone := st.reverted.get(m); undone {
			return StateRolledBack, m.String(), nil
		}
		return StatePublished, m.String(), nil
	}
	approved, _ := ApprovedEnough(b.Config, c, c.Writers)
	inMain, err := b.holdsCandidate(ch, st.mainTree)
	if err != nil {
		return "", "", err
	}
	if inMain {
		if approved {
			return StatePublished, "", nil
		}
		if st.since.IsZero() {
			// Only the folder was compared: whether the branch merged this very tip
			// is read back to when the candidate was proposed.
			own, err := b.NewStateCtx(ch.Propose().C.Committer.When)
			if err != nil {
				return "", "", err
			}
			if m, ok := own.merged.get(ch.Tip); ok {
				return StatePublished, m.String(), nil
			}
		}
	}
	if approved {
		if rev, ok, err := b.squashRolledBack(ch, st); err != nil || ok {
			return StateRolledBack, rev.String(), err
		}
	}
	if !st.canaryTree.IsZero() && approved {
		if inCanary, err := b.holdsCandidate(ch, st.canaryTree); err != nil || inCanary {
			return StateCanary, "", err
		}
	}
	if approved {
		return StateApproved, "", nil
	}
	return StateOpen, "", nil
}

// holdsCandidate reports whether tree has the candidate's skill folder exactly as its tip has
// it, where the candidate changed that folder.
func (b *Book) holdsCandidate(ch *Chain, tree gitstore.Hash) (bool, error) {
	base, err := b.baseTree(ch)
	if err != nil {
		return false, err
	}
	before, err := b.ScopeKey(ch, base)
	if err != nil {
		return false, err
	}
	got, err := b.ScopeKey(ch, tree)
	if err != nil || got == before {
		// The channel still has the folder the candidate started from: whatever the
		// candidate did, it is not there yet. This spares reading the candidate's tree.
		return false, err
	}
	want, err := b.ScopeKey(ch, ch.Last().C.TreeHash)
	return err == nil && got == want && want != before, err
}

// baseTree is the tree of the commit the candidate was proposed on; the empty tree for a
// candidate proposed on no commit.
func (b *Book) baseTree(ch *Chain) (gitstore.Hash, error) {
	ps := ch.Propose().C.ParentHashes
	if len(ps) == 0 {
		return gitstore.ZeroHash, nil
	}
	return b.treeOf(ps[0])
}

func NeedApprovals(cfg *policy.Config, have int) string {
	who := "people"
	if !cfg.Approvals.AllowSelf {
		who = "people other than its author"
	}
	if cfg.Approvals.Signed {
		who += ", signed by a key of " + cfg.Approvals.AllowedSigners + ","
	}
	return fmt.Sprintf("it needs %d approval(s) by %s and has %d", cfg.Approvals.Required, who, have)
}

// squashRolledBack finds the revert that undid a squash or rebase merge of the candidate: a
// reverted single-parent commit of the publish branch that put the candidate's content in
// place. With a context that read no history, the history since the candidate was proposed
// is read.
func (b *Book) squashRolledBack(ch *Chain, st *StateCtx) (gitstore.Hash, bool, error) {
	if st.since.IsZero() {
		own, err := b.NewStateCtx(ch.Propose().C.Committer.When)
		if err != nil {
			return gitstore.ZeroHash, false, err
		}
		st = own
	}
	proposed := ch.Propose().C.Committer.When
	for target, rev := range st.reverted.flat() {
		c, err := st.commit(b, target)
		if err != nil && b.hasCommit(target) {
			return gitstore.ZeroHash, false, err
		}
		if err != nil || len(c.ParentHashes) != 1 || c.Committer.When.Before(proposed) {
			// The history is read back to the oldest candidate's proposal, by committer
			// date; a commit older than this candidate's cannot have merged it.
			continue
		}
		if !ch.IsPolicy() && !b.touches(st, target, c, ch.Path()) {
			// A commit that left the candidate's folder alone neither brought it nor took it.
			continue
		}
		held, err := b.holdsCandidate(ch, c.TreeHash)
		if err != nil {
			return gitstore.ZeroHash, false, unreadable(target, err)
		}
		if !held {
			continue
		}
		before, err := b.treeOf(c.ParentHashes[0])
		if err != nil {
			return gitstore.ZeroHash, false, err
		}
		was, err := b.holdsCandidate(ch, before)
		if err != nil {
			return gitstore.ZeroHash, false, unreadable(c.ParentHashes[0], err)
		}
		if !was {
			return rev, true, nil
		}
	}
	return gitstore.ZeroHash, false, nil
}
