package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/remotes"
)

// fetchOptions are the flag and argument of fetch.
type fetchOptions struct {
	app   *app
	args  []string
	force bool
}

func newFetchCmd(a *app) *cobra.Command {
	fo := &fetchOptions{app: a}
	c := &cobra.Command{
		Use:   "fetch [REMOTE]",
		Short: "Bring candidates, the archive and the publish branch from a remote",
		Long: `Fetch the candidate branches, the archive of rejected candidates and the publish
branch from REMOTE (default: origin, or the only remote). New candidates become
local candidate branches and newer versions fast-forward them; a candidate that
has changes of its own on both sides is kept as it is and reported, with the
remote's version at refs/remotes/REMOTE/candidate/ID. The publish branch is
recorded at refs/remotes/REMOTE/BRANCH and the local branch fast-forwarded to it,
with its files when it is checked out.

When the remote's publish branch moved on while yours holds publishes you did not
push, those publishes are taken off your branch and their candidates restored:
publish them again ('skillgit rebase ID' first if it is behind), then push.

When the remote's publish branch shares no commit with yours (the two
repositories were made apart, each with its own 'skillgit init'), only
refs/remotes/REMOTE/BRANCH is recorded, and fetch says what to do and exits with 1.

On a terminal, or with --progress, fetch shows what the server says as it comes.`,
		Args: rangeArgs(0, 1),
		RunE: func(c *cobra.Command, args []string) error {
			fo.args = args
			return runFetch(c, fo)
		},
	}
	c.Flags().BoolVar(&fo.force, "progress", false, "show progress on stderr even when it is not a terminal")
	a.addJSON(c)
	return c
}

func runFetch(c *cobra.Command, fo *fetchOptions) error {
	a, args := fo.app, fo.args
	o := remotes.FetchOptions{Progress: a.progressTo(fo.force)}
	if len(args) == 1 {
		o.Remote = args[0]
	}
	return a.withRepo(func(r *lifecycle.Repo) error {
		res, err := remotes.Fetch(c.Context(), r, o)
		if res != nil {
			for _, w := range res.Warnings {
				a.warn("%s", sanitize(w))
			}
		}
		if err != nil {
			return err
		}
		return a.printResult(res, func(w io.Writer) error { return fetchText(w, res) })
	})
}

func fetchText(w io.Writer, res *remotes.FetchResult) error {
	for _, ch := range res.Changes {
		if _, err := fmt.Fprintln(w, changeLine(ch)); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, publishLine(res))
	return err
}

// publishLine says where the local publish branch stands after a fetch.
func publishLine(res *remotes.FetchResult) string {
	b, rb := res.Branch, res.Remote+"/"+res.Branch
	switch res.Publish {
	case "up to date":
		return b + " is up to date with " + rb
	case "fast-forwarded":
		return b + " fast-forwarded to " + rb
	case "ahead":
		return b + " is ahead of " + rb + "; `skillgit push` sends it"
	case "returned":
		return b + " moved to " + rb + "; its unpushed publishes are candidates again"
	case "diverged":
		return b + " and " + rb + " diverged; it was left as it is"
	case "absent on remote":
		return res.Remote + " has no " + b + " yet; `skillgit push` creates it"
	}
	return b + ": " + res.Publish
}

// changeLine renders what happened to one ref: "created candidate/pdf-tools-7f3a (1a2b3c4)".
func changeLine(ch remotes.RefChange) string {
	line := ch.Action + " " + shortRef(ch.Ref)
	switch {
	case ch.Old != "" && ch.New != "":
		line += fmt.Sprintf(" (%s..%s)", shortHash(ch.Old), shortHash(ch.New))
	case ch.New != "":
		line += fmt.Sprintf(" (%s)", shortHash(ch.New))
	case ch.Old != "":
		line += fmt.Sprintf(" (was %s)", shortHash(ch.Old))
	}
	if ch.Note != "" {
		line += ": " + ch.Note
	}
	return sanitize(line)
}

func shortRef(ref string) string {
	for _, p := range []string{"refs/heads/", "refs/"} {
		if s, ok := strings.CutPrefix(ref, p); ok {
			return s
		}
	}
	return ref
}

// progressTo is where network progress goes: stderr when it is a terminal and --json is not
// given, else nowhere; stderr in any case when force is set (--progress).
func (a *app) progressTo(force bool) io.Writer {
	if force {
		return a.Err
	}
	if a.json || !isTerminal(a.Err) {
		return nil
	}
	return a.Err
}
