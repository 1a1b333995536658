package lifecycle

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
)

// casAttempts bounds how often an action that lost a race for a ref is recomputed on the new
// tip before it gives up; with the pauses between tries that is several seconds of losing.
const casAttempts = 100

// lockedAttempts bounds the tries while another process holds the ref's lock: a starved
// process tries again, a lock left by a crash is reported within seconds.
const lockedAttempts = 3

// tx is one lifecycle action that writes, from its first try to the housekeeping after it:
// it writes the action's commits, moves the refs they land on by compare-and-swap (a channel
// together with the files of a working tree that has it checked out), computes the action
// again on the publish branch's new tip when another process moved a ref first, and packs
// and indexes what was written.
type tx struct {
	r *Repo
	// sig is who acts: the author and committer of the commits the action writes.
	sig object.Signature
}

// signer signs the payload of a commit; a nil signer writes the commit unsigned.
type signer = func([]byte) (string, error)

// RetryCAS runs step until it does not lose a race for a ref, reloading the publish branch
// before each new try, with a short random pause so that racing processes spread out.
func RetryCAS(r *Repo, step func() (*Result, error)) (*Result, error) {
	return (&tx{r: r}).retry(step)
}

// CommitOnBranch writes a commit by sig of tree on the publish branch's tip, with message
// msg, and moves the branch to it by compare-and-swap; when the branch is checked out, the
// files of paths are brought up to date with it. Run it inside RetryCAS.
func CommitOnBranch(r *Repo, sig object.Signature, tree gitstore.Hash, msg string, paths []string) (gitstore.Hash, error) {
	return (&tx{r: r, sig: sig}).onBranch(tree, msg, paths)
}

// retry is RetryCAS.
func (t *tx) retry(step func() (*Result, error)) (*Result, error) {
	var err error
	locked := 0
	for i := range casAttempts {
		var res *Result
		res, err = step()
		if errors.Is(err, gitstore.ErrLocked) {
			if locked++; locked >= lockedAttempts {
				return nil, err
			}
		} else if !errors.Is(err, gitstore.ErrRefChanged) {
			return res, err
		}
		time.Sleep(time.Duration(rand.IntN(min(10*(i+1), 200))) * time.Millisecond)
		if rerr := t.r.Reload(); rerr != nil {
			return nil, rerr
		}
	}
	return nil, fmt.Errorf("gave up after %d tries: other processes keep moving the branch: %w", casAttempts, err)
}

// commit writes a commit by the actor with the given tree, message and parents, signed by
// sign when it is not nil.
func (t *tx) commit(tree gitstore.Hash, msg string, sign signer, parents ...gitstore.Hash) (gitstore.Hash, error) {
	return t.r.git.Writes().WriteCommit(gitstore.CommitSpec{Tree: tree, Parents: parents, Author: t.sig, Committer: t.sig, Message: msg, Sign: sign})
}

// onBranch is CommitOnBranch.
func (t *tx) onBranch(tree gitstore.Hash, msg string, paths []string) (gitstore.Hash, error) {
	r := t.r
	h, err := t.commit(tree, msg, nil, r.tip)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	if err := t.move(r.branch, r.tip, h, r.tree, tree, paths); err != nil {
		return gitstore.ZeroHash, err
	}
	return h, nil
}

// move moves target from old to h. When target is the checked-out branch of a working tree,
// the index and files of the changed paths are brought up to date while the ref is locked and
// known to hold old, so an update that loses a race or meets local changes leaves both as
// they were. While refs are held (see Hold), the move waits in memory, and so does the
// update of the files.
func (t *tx) move(target string, old, h, oldTree, newTree gitstore.Hash, paths []string) error {
	g := t.r.git
	head, err := g.Refs().HeadBranch()
	checkedOut := err == nil && head == target && !g.Bare() && g.WorktreeDir() != ""
	if g.Holds().Holding() {
		if err := g.Updates().Update(target, h, old, "skillgit"); err != nil || !checkedOut {
			return err
		}
		t.r.held = t.r.held.add(oldTree, newTree, paths)
		return nil
	}
	if !checkedOut {
		return g.Updates().Update(target, h, old, "skillgit")
	}
	return withFiles(g, target, oldTree, newTree, paths, func(fn func() error) error {
		return g.Updates().UpdateWhileLocked(target, h, old, "skillgit", fn)
	})
}

// done packs loose objects when they pile up, and adds the commits to git's commit-graph when
// enough are outside it; a failure only warns. While refs are held the commit is not on disk
// yet, and Land extends the graph instead.
func (t *tx) done(res *Result) {
	g := t.r.git
	if _, err := g.Packs().MaybePack(gitstore.AutoPackThreshold); err != nil {
		res.addWarning(fmt.Sprintf("warning: packing loose objects failed: %v", err))
	}
	if res.Commit == "" || g.Holds().Holding() {
		return
	}
	if err := extendGraph(g, plumbing.NewHash(res.Commit)); err != nil {
		res.addWarning("warning: " + err.Error())
	}
}

// extendGraph adds h and its ancestors to git's commit-graph when enough are outside it.
func extendGraph(g *gitstore.Repo, h gitstore.Hash) error {
	if _, err := g.History().MaybeExtendCommitGraph(h, gitstore.AutoGraphThreshold); err != nil {
		return fmt.Errorf("%w (git log and skillgit still work without it)", err)
	}
	return nil
}
