package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
)

const authorHelp = "act as `\"Name <email>\"` (default: $SKILLGIT_AUTHOR, else the git identity)"

// addAuthor declares --author on a command that acts.
func addAuthor(c *cobra.Command, author *string) {
	c.Flags().StringVar(author, "author", "", authorHelp)
}

const unattendedHelp = "act as an agent with no person behind it: only what the mode does on its own, and only for skills in the agents' scope (agent_scope)"

// actorFlags are --author and --unattended, for the commands an agent may run on its own.
type actorFlags struct {
	author     string
	unattended bool
}

// addActor declares --author and --unattended on a command that acts.
func addActor(c *cobra.Command, f *actorFlags) {
	addAuthor(c, &f.author)
	c.Flags().BoolVar(&f.unattended, "unattended", false, unattendedHelp)
}

// options says who acts and whether a person is behind the action.
func (f actorFlags) options() lifecycle.ActOptions {
	o := act(f.author)
	o.Unattended = f.unattended
	return o
}

// act says who acts: --author, else SKILLGIT_AUTHOR, else the git identity.
func act(author string) lifecycle.ActOptions {
	return lifecycle.ActOptions{Author: author, Getenv: getenv}
}

// withRepo opens the skill repository, runs fn on it and closes it.
func (a *app) withRepo(fn func(*lifecycle.Repo) error) error {
	r, err := a.openRepo()
	if err != nil {
		return err
	}
	defer r.Close()
	return fn(r)
}

// printAction reports what a lifecycle action did: warnings and what the policy did on its own
// on stderr, then the result on stdout, as JSON or as the line that text gives.
func (a *app) printAction(res *lifecycle.Result, text string) error {
	a.printNotes(res)
	return a.printResult(res, func(w io.Writer) error {
		_, err := fmt.Fprintln(w, text)
		return err
	})
}

// printNotes prints on stderr the warnings of an action and what the policy did on its own,
// also when the action failed part way; res may be nil.
func (a *app) printNotes(res *lifecycle.Result) {
	if res == nil {
		return
	}
	for _, w := range res.Warnings {
		a.warn("%s", sanitize(w))
	}
	for _, line := range res.Auto {
		fmt.Fprintf(a.Err, "%s: %s\n", res.ID, sanitize(line))
	}
}

// shortHash cuts a commit id to the length git shows by default.
func shortHash(h string) string {
	if len(h) > 7 {
		return h[:7]
	}
	return h
}
