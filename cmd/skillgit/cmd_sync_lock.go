package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle/agentsync"
)

// lockOptions are the flags of sync about an application project's lock file.
type lockOptions struct {
	update bool
	frozen bool
	check  bool
	skills []string
}

func addLockFlags(c *cobra.Command, o *lockOptions) {
	f := c.Flags()
	f.BoolVar(&o.update, "update", false, "move the lock to the channel's tip, for every skill or the SKILLs named, then install")
	f.BoolVar(&o.frozen, "frozen", false, "install exactly what the lock pins; fail when it is missing or does not match (for CI)")
	f.BoolVar(&o.check, "check", false, "list the skills whose channel version is ahead of the lock; exit 5 when there are some")
	exclusiveFlags(c, "--update moves the lock to the channel's tip, --frozen installs exactly what it pins and --check only lists what the channel has ahead of it",
		"update", "frozen", "check")
}

// lockArgs accepts skill names only with --update.
func lockArgs(o *lockOptions) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if len(args) > 0 && !o.update {
			return usageError{fmt.Errorf("sync takes no arguments, except skill names with --update (got %q)", args[0])}
		}
		o.skills = args
		return nil
	}
}

func (o *lockOptions) mode() agentsync.LockMode {
	switch {
	case o.update:
		return agentsync.LockUpdate
	case o.frozen:
		return agentsync.LockFrozen
	case o.check:
		return agentsync.LockCheck
	}
	return agentsync.LockInstall
}

// checkLockUse refuses the lock flags with --watch, and with the flags of a sync that
// installs without the lock.
func (o *syncOptions) checkLockUse() error {
	l := o.lock
	var used []string
	for _, f := range []struct {
		name string
		on   bool
	}{{"--update", l.update}, {"--frozen", l.frozen}, {"--check", l.check}} {
		if f.on {
			used = append(used, f.name)
		}
	}
	if len(used) == 0 {
		return nil
	}
	if o.watch {
		return usageError{errors.New("--update, --frozen and --check do not go with --watch")}
	}
	var without []string
	for _, f := range []struct {
		name string
		on   bool
	}{{"--dir", len(o.dirs) > 0}, {"--target", len(o.targets) > 0}, {"--channel", o.channel != ""}, {"--global", o.global}} {
		if f.on {
			without = append(without, f.name)
		}
	}
	if len(without) > 0 {
		return usageError{fmt.Errorf("%s does not go with %s: %s", joinAnd(used), joinAnd(without), agentsync.LockFlagsScope)}
	}
	return nil
}

type lockJSON struct {
	File    string           `json:"file"`
	Commit  string           `json:"commit"`
	Written bool             `json:"written"`
	Changes []lockChangeJSON `json:"changes"`
	// Verified says whether the project's trust: verified what the lock installs.
	Verified bool `json:"verified"`
}

type lockChangeJSON struct {
	Skill     string   `json:"skill"`
	Change    string   `json:"change"`
	Tree      string   `json:"tree,omitempty"`
	Publish   string   `json:"publish,omitempty"`
	Risk      string   `json:"risk,omitempty"`
	Approvers []string `json:"approvers"`
	Keys      []string `json:"keys,omitempty"`
}

func lockOut(l *agentsync.LockReport) *lockJSON {
	if l == nil {
		return nil
	}
	out := &lockJSON{File: l.File, Commit: l.Commit, Written: l.Written, Changes: []lockChangeJSON{}, Verified: !l.Unverified}
	for _, c := range l.Changes {
		out.Changes = append(out.Changes, lockChangeJSON{Skill: c.Skill, Change: c.Change, Tree: c.Tree, Publish: c.Publish,
			Risk: c.Risk, Approvers: orEmpty(c.Approvers), Keys: c.Keys})
	}
	return out
}

// printLockChanges prints what a lock update moves, one line per skill.
func printLockChanges(w io.Writer, l *agentsync.LockReport, prefix string) {
	if l == nil {
		return
	}
	for _, c := range l.Changes {
		fmt.Fprintf(w, "%s%s %s: risk %s, approved by %s, publish %s\n", prefix, c.Change, sanitize(c.Skill),
			dash(c.Risk), dash(sanitize(strings.Join(c.Approvers, ", "))), dash(shortID(c.Publish)))
		if len(c.Keys) > 0 {
			fmt.Fprintf(w, "%s  verified: signed by %s\n", prefix, strings.Join(c.Keys, ", "))
		}
	}
}

// printLockEnd says what became of the lock.
func printLockEnd(w io.Writer, l *agentsync.LockReport) {
	if l != nil && l.Written {
		fmt.Fprintf(w, "wrote %s at %s; commit it with the project\n", agentsync.LockFileName, shortID(l.Commit))
	}
}

// syncCheck prints the skills whose channel version is ahead of the lock and ends with
// ExitUpdates when there are some.
func (o *syncOptions) syncCheck(rep *agentsync.Report) error {
	a := o.app
	l := rep.Lock
	err := a.printResult(struct {
		Lock *lockJSON `json:"lock"`
	}{lockOut(l)}, func(w io.Writer) error {
		printLockChanges(w, l, "")
		if len(l.Changes) == 0 {
			fmt.Fprintf(w, "%s is current with %s (%s)\n", agentsync.LockFileName, rep.Channel, shortID(l.Commit))
		} else {
			fmt.Fprintf(w, "%s on %s (%s) since the lock; `skillgit sync --update` moves it\n", countOf(len(l.Changes), "update", "updates"), rep.Channel, shortID(l.Commit))
		}
		return nil
	})
	if err == nil && len(l.Changes) > 0 {
		return quietExit{ExitUpdates}
	}
	return err
}

func shortID(id string) string {
	if len(id) > 7 {
		return id[:7]
	}
	return id
}
