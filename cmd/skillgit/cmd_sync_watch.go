package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/hugeheap"
	"github.com/skillgit/skillgit/internal/interrupt"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/agentsync"
	"github.com/skillgit/skillgit/lifecycle/remotes"
)

// watchSync syncs, then again whenever the channel's tip moves, until SIGINT or SIGTERM. A
// failed sync is reported and retried at the next look; a conflict (a skill edited in the
// target) is reported and the others stay in sync.
func (o *syncOptions) watchSync() error {
	a := o.app
	if o.dryRun {
		return usageError{errors.New("--watch and --dry-run do not go together")}
	}
	interrupt.Gracefully() // the watch stops when the context is cancelled, and exits 0
	hugeheap.Settle()      // it runs long
	ctx := a.ctx
	if _, found, _ := agentsync.FindSyncFile(a.repo); found && o.project == "" {
		return usageError{fmt.Errorf("--watch follows a skill repository: run `skillgit sync --watch --project DIR` in the skill repository, DIR being this project")}
	}
	r, err := lifecycle.Open(a.repo)
	if err != nil {
		return err
	}
	defer r.Close()
	channel := cmp.Or(o.channel, agentsync.ProjectChannel(a.repo, o.project))
	opts := remotes.WatchOptions{Remote: o.remote, Channel: channel, Interval: o.interval,
		OnError: func(err error) { a.warn("sync --watch: %v", err) }}
	err = remotes.Watch(ctx, r, opts, func(_ context.Context, tip gitstore.Hash) error {
		fmt.Fprintf(a.Err, "skillgit: syncing %s\n", shortHash(tip.String()))
		if err := o.syncOnce(tip); err != nil && !errors.As(err, new(quietExit)) {
			return err
		}
		return nil
	})
	if err == nil {
		fmt.Fprintln(a.Err, "skillgit: sync --watch stopped")
	}
	return err
}
