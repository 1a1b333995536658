package remotes

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// ErrUnrelated reports a remote whose publish branch shares no commit with the local one: the
// two repositories were made apart, and neither push nor fetch can bring one onto the other.
var ErrUnrelated = errors.New("unrelated histories")

// unrelated reports whether the local publish tip lt and the remote's rt, a commit this
// repository has, share no commit.
func (r repo) unrelated(lt, rt gitstore.Hash) bool {
	if rt.IsZero() || lt.IsZero() {
		return false
	}
	if _, err := r.Git().Objects().Commit(rt); err != nil {
		return false
	}
	base, err := r.Git().History().MergeBase(lt, rt)
	return err == nil && base.IsZero()
}

// fetchRemoteTip brings the remote's publish tip rt and its history here when this repository
// lacks it, so that a push can tell a remote that moved on from one with an unrelated history.
func (r repo) fetchRemoteTip(ctx context.Context, rm *remote, rt gitstore.Hash, progress io.Writer) error {
	if rt.IsZero() {
		return nil
	}
	if _, err := r.Git().Objects().Commit(rt); err == nil {
		return nil
	}
	err := rm.fetch(ctx, []config.RefSpec{config.RefSpec("+" + r.Branch() + ":" + scratch + "publish")}, liveLines(progress))
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		return fmt.Errorf("%s: fetching %s/%s to compare it with yours: %w", gitstore.ShortRef(r.Branch()), rm.name, gitstore.ShortRef(r.Branch()), err)
	}
	return nil
}

// unrelatedError says that the local and the remote publish branches share no commit, what
// was left as it was (done), and what to do.
func (r repo) unrelatedError(rm *remote, rt gitstore.Hash, done string) error {
	b := gitstore.ShortRef(r.Branch())
	force := ""
	if r.initOnly(rt) {
		force = fmt.Sprintf("%s/%s holds nothing but the commit `skillgit init` made: if nobody works from it yet, `git push --force %s %s` replaces it with yours. ",
			rm.name, b, rm.name, b)
	}
	return fmt.Errorf("%s: %w: your %s (at %s) and %s/%s (at %s) share no commit, so the repository at %s was not made from this one "+
		"(each was made with its own `skillgit init`, say); %s. %sTo work on the skills %s holds, clone it (`git clone %s`) and propose yours there (`skillgit propose DIR`); "+
		"to share this repository as it is, push it into an empty repository (`skillgit init --bare DIR` makes one on the server) and point %s at it (`git remote set-url %s URL`)",
		b, ErrUnrelated, b, gitstore.ShortHash(r.Tip().String()), rm.name, b, gitstore.ShortHash(rt.String()), rm.url, done, force, rm.name, rm.url, rm.name, rm.name)
}

// initOnly reports whether commit h is a lone commit that `skillgit init` made.
func (r repo) initOnly(h gitstore.Hash) bool {
	c, err := r.Git().Objects().Commit(h)
	if err != nil || len(c.ParentHashes) > 0 {
		return false
	}
	return ledger.ParseClaims(c.Message).Get(ledger.KeyAction) == ledger.ActInit
}

// checkRelated stops a fetch whose remote publish branch shares no commit with the local one,
// before anything else is brought in: it records the remote's tip at its remote-tracking ref,
// for `git log`, and returns ErrUnrelated.
func (r repo) checkRelated(rm *remote, rr *remoteRefs, res *FetchResult) error {
	rt, lt := rr.publish, r.Tip()
	if rt.IsZero() || rt == lt || r.Book().Descends(rt, lt) || r.Book().Descends(lt, rt) || !r.unrelated(lt, rt) {
		return nil
	}
	res.Publish, res.RemoteTip = "unrelated", rt.String()
	if err := r.setRef(rm.trackingRef(r.Branch()), rt, "skillgit fetch"); err != nil {
		return err
	}
	tracking := strings.TrimPrefix(rm.trackingRef(r.Branch()), "refs/remotes/")
	return r.unrelatedError(rm, rt, fmt.Sprintf("nothing was brought in but the remote's tip, recorded as %s for `git log %s`", tracking, tracking))
}
