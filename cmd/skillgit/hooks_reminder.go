package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/hooks"
)

// remindsOfHooks are the commands after which people go on with `git commit` and `git push`
// in the skill repository: the ones that write to it or move its refs. After one succeeds,
// a repository without skillgit's hooks, as a clone is, is told so once. Commands that only
// read, sync (which works in an application project), mcp (whose stderr is a client's log)
// and hooks and hook themselves say nothing.
var remindsOfHooks = map[string]bool{
	"skillgit new": true, "skillgit propose": true, "skillgit revise": true, "skillgit approve": true,
	"skillgit reject": true, "skillgit merge-candidate": true, "skillgit publish": true, "skillgit rollback": true,
	"skillgit rebase": true, "skillgit mode": true, "skillgit pack add": true, "skillgit pack update": true,
	"skillgit pack remove": true, "skillgit push": true, "skillgit fetch": true,
}

// remindOfHooks warns, once per repository, when command c acts in a skill repository whose
// hooks are missing. A reminder that cannot be worked out is not worth an error: the
// command itself has succeeded.
func (a *app) remindOfHooks(c *cobra.Command) {
	if c == nil || !remindsOfHooks[c.CommandPath()] {
		return
	}
	rem, err := hooks.Remind(hooks.Options{Dir: a.repo, Getenv: getenv})
	if err != nil || rem == nil {
		return
	}
	a.warn("%s", sanitize(hooksReminder(rem)))
}

// declineHooks records that the repository in dir goes without hooks, as init --no-hooks
// asked, so that no command reminds of them there.
func declineHooks(a *app, dir string) {
	if err := hooks.Decline(hooks.Options{Dir: dir}, "made by `skillgit init --no-hooks`"); err != nil {
		a.warn("%v; skillgit may remind you once that the hooks are missing", err)
	}
}

// hooksReminder says which hooks are missing, what that leaves unaudited, and what to run.
func hooksReminder(rem *hooks.Reminder) string {
	return fmt.Sprintf("skillgit's git hooks are not installed in this repository (%s missing from %s; a clone gets no hooks): "+
		"a plain `git commit` or `git push` here is not audited until you run `skillgit hooks install` (said once)",
		strings.Join(rem.Missing, ", "), rem.Dir)
}
