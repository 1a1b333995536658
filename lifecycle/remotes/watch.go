package remotes

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/gitauth"
	"github.com/skillgit/skillgit/lifecycle"
)

// Default polling intervals of Watch.
const (
	DefaultWatchInterval    = time.Second
	DefaultWatchMaxInterval = 30 * time.Second
)

// WatchOptions says what Watch follows and how often it looks.
type WatchOptions struct {
	// Remote, when set, follows the publish branch of that remote instead of the local one;
	// each new tip is fetched (to refs/remotes/<remote>/<branch>) before the callback runs.
	Remote string
	// Channel is main (the publish branch, the default) or canary.
	Channel string
	// Interval is the time between two looks; 0 means DefaultWatchInterval.
	Interval time.Duration
	// MaxInterval bounds the back-off after failures; 0 means DefaultWatchMaxInterval.
	MaxInterval time.Duration
	// OnError, when set, receives the failures of a look or of the callback and the watch
	// goes on, looking less often while they last; when nil, the first failure ends it.
	OnError func(error)
}

// WatchFunc is called with the branch's tip when Watch starts and after every change.
type WatchFunc func(ctx context.Context, tip gitstore.Hash) error

// Watch follows a channel's branch, locally or on a remote, and calls fn with its tip once at
// the start and again every time the tip changes (a publish, a rollback, a reset). It polls:
// every Interval while all goes well, backing off up to MaxInterval while looking or fn
// fails. It returns nil when ctx is cancelled, or the first failure when OnError is nil.
func Watch(ctx context.Context, lr *lifecycle.Repo, o WatchOptions, fn WatchFunc) error {
	r := repo{lr}
	look, err := r.watchLook(o)
	if err != nil {
		return err
	}
	interval, maxInterval := o.Interval, o.MaxInterval
	if interval <= 0 {
		interval = DefaultWatchInterval
	}
	if maxInterval < interval {
		maxInterval = max(DefaultWatchMaxInterval, interval)
	}
	w := &watcher{look: look, fn: fn, onError: o.OnError, wait: interval}
	for {
		if err := w.step(ctx); err != nil {
			return err
		}
		if w.failing {
			w.wait = min(2*w.wait, maxInterval)
		} else {
			w.wait = interval
		}
		t := time.NewTimer(w.wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
	}
}

// watcher is the state of one Watch.
type watcher struct {
	look    func(context.Context) (gitstore.Hash, error)
	fn      WatchFunc
	onError func(error)
	seen    gitstore.Hash
	called  bool
	failing bool
	wait    time.Duration
}

// step looks once and calls fn when the tip changed. A failure is returned when there is no
// OnError to take it.
func (w *watcher) step(ctx context.Context) error {
	tip, err := w.look(ctx)
	if ctx.Err() != nil {
		return nil
	}
	if err == nil && (!w.called || tip != w.seen) {
		if err = w.fn(ctx, tip); err == nil || ctx.Err() != nil {
			w.seen, w.called = tip, true
		}
	}
	w.failing = err != nil && ctx.Err() == nil
	if !w.failing {
		return nil
	}
	if w.onError == nil {
		return err
	}
	w.onError(err)
	return nil
}

// watchLook returns the function that reads the followed branch's tip.
func (r repo) watchLook(o WatchOptions) (func(context.Context) (gitstore.Hash, error), error) {
	ref, err := r.ChannelRef(o.Channel)
	if err != nil {
		return nil, err
	}
	if o.Remote == "" {
		return func(context.Context) (gitstore.Hash, error) {
			h, err := r.Git().Refs().Get(ref)
			if err != nil {
				return h, fmt.Errorf("watching %s: %w", gitstore.ShortRef(ref), err)
			}
			return h, nil
		}, nil
	}
	name, err := r.resolveRemote(o.Remote)
	if err != nil {
		return nil, err
	}
	// The credentials found for the first look serve the looks after it.
	var access *gitauth.Access
	return func(ctx context.Context) (gitstore.Hash, error) {
		rm, err := r.openRemote(name)
		if err != nil {
			return gitstore.ZeroHash, err
		}
		access = gitauth.Keep(access, rm.access)
		rm.access = access
		return r.remoteTip(ctx, rm, ref)
	}, nil
}

// remoteTip lists the remote's ref and, when its tip is not here yet, fetches it into the
// remote-tracking ref.
func (r repo) remoteTip(ctx context.Context, rm *remote, ref string) (gitstore.Hash, error) {
	refs, err := rm.list(ctx)
	if err != nil {
		return gitstore.ZeroHash, fmt.Errorf("watching %s on %s: %w", gitstore.ShortRef(ref), rm.name, err)
	}
	tip := gitstore.ZeroHash
	for _, x := range refs {
		if x.Name().String() == ref && x.Type() == plumbing.HashReference {
			tip = x.Hash()
		}
	}
	if tip.IsZero() {
		return tip, fmt.Errorf("watching %s on %s: %w", gitstore.ShortRef(ref), rm.name, gitstore.ErrRefNotFound)
	}
	if _, err := r.Git().Objects().Commit(tip); err != nil {
		if err := rm.fetch(ctx, []config.RefSpec{config.RefSpec("+" + ref + ":" + scratch + "watch")}, nil); err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
			return tip, fmt.Errorf("fetching %s from %s: %w", gitstore.ShortRef(ref), rm.name, err)
		}
	}
	return tip, r.setRef(rm.trackingRef(ref), tip, "skillgit watch")
}
