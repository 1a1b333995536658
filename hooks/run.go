package hooks

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/receive"
)

// ExitBlocked is the exit status of a hook that refuses a commit or a push.
const ExitBlocked = 3

// RunOptions is what a git hook runs with.
type RunOptions struct {
	// Dir is the folder git runs the hook in.
	Dir string
	// Stdin carries the ref updates of pre-push and pre-receive.
	Stdin io.Reader
	// Stderr receives the report, warnings included.
	Stderr io.Writer
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Scope widens pre-commit to skills the commit does not touch, as ParsePreCommitArgs
	// reads it from the hook's arguments.
	Scope auditrun.StagedScope
	// Terminal says that Stderr is a terminal, where pre-push shows the audit's progress.
	// Pre-receive always reports it: git relays it to the client, which shows it or not.
	Terminal bool
}

// Run is the git hook name: it audits what the commit or push brings, writes the report on
// o.Stderr and returns the hook's exit status: ExitBlocked when it refuses, else 0.
func Run(name string, o RunOptions) (int, error) {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	run, updates, err := check(name, o)
	if err != nil {
		return 0, err
	}
	if run == nil || run.NotSkillgit {
		return 0, nil
	}
	p := printer{w: o.Stderr, hook: name}
	p.warnings(run.Warnings)
	if !run.Blocked() {
		return 0, nil
	}
	p.blocked(run, updates)
	return ExitBlocked, nil
}

// check runs the lifecycle check of hook name; the run is nil when there is nothing to check.
func check(name string, o RunOptions) (*auditrun.HookRun, []gitstore.RefUpdate, error) {
	var updates []gitstore.RefUpdate
	var err error
	switch name {
	case PreCommit:
		run, err := lifecycle.AuditStagedScope(o.Dir, o.Scope, o.Getenv)
		return run, nil, err
	case PrePush:
		updates, err = ParsePrePush(o.Stdin)
		if err == nil {
			updates = knownBases(o.Dir, updates)
		}
	case PreReceive:
		updates, err = ParsePreReceive(o.Stdin)
	default:
		return nil, nil, fmt.Errorf("hook %q: unknown; skillgit runs as pre-commit, pre-push or pre-receive", clip(name, 40))
	}
	if err != nil || len(updates) == 0 {
		return nil, nil, err
	}
	if name == PreReceive {
		run, err := receive.Check(o.Dir, updates, o.Getenv, NewProgress(o.Stderr, "skillgit: ").Update)
		return run, updates, err
	}
	var progress auditrun.Progress
	if o.Terminal {
		progress = NewProgress(o.Stderr, "skillgit: ").Update
	}
	run, err := lifecycle.AuditPushed(o.Dir, updates, o.Getenv, progress)
	return run, updates, err
}

// knownBases drops the old id of a pushed ref when this repository lacks that commit or tag (the
// remote moved on since the last fetch), so that the push is audited from where it forked
// from the publish branch instead. A repository it cannot open is left to the audit to judge.
func knownBases(dir string, updates []gitstore.RefUpdate) []gitstore.RefUpdate {
	r, err := gitstore.Open(dir)
	if err != nil {
		return updates
	}
	defer r.Close()
	for i, u := range updates {
		if u.Old.IsZero() || u.New.IsZero() {
			continue
		}
		if _, err := r.Objects().PeelCommit(u.Old); errors.Is(err, plumbing.ErrObjectNotFound) {
			updates[i].Old = gitstore.ZeroHash
		}
	}
	return updates
}
