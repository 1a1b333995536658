package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/hooks"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/remotes"
)

// pushOptions are the flag and arguments of push.
type pushOptions struct {
	app   *app
	args  []string
	force bool
}

func newPushCmd(a *app) *cobra.Command {
	po := &pushOptions{app: a}
	c := &cobra.Command{
		Use:   "push [REMOTE] [ID...]",
		Short: "Send candidates, the archive and the publish branch to a remote",
		Long: `Push to REMOTE (default: origin, or the only remote) in one atomic push: every
candidate branch, the archive of rejected candidates and the publish branch; with
IDs, only those candidates. Candidates that are published or rejected here are
removed from the remote.

The publish branch only moves forward from the remote tip your publishes were
built on, and only if the remote still holds it when the push arrives. If another
clone published first, nothing is pushed and push exits with 4: run
'skillgit fetch', then 'skillgit rebase ID' if needed and 'skillgit publish ID'
again, then push. An empty remote repository (as 'skillgit init --bare' makes
one) takes the publish branch as it is. If the remote's publish branch shares no
commit with yours (the two repositories were made apart, each with its own
'skillgit init'), nothing is pushed, push says what to do instead and exits with 1.

Before it sends anything, push audits what it brings exactly as the pre-push hook
audits a 'git push', under the policy and skip switch of what the remote holds:
when the audit refuses, it names the findings and exits with 3. When the server's
hooks refuse the push, their messages are printed as the server wrote them, and
push exits with 3.

On a terminal, or with --progress, push shows what the server says as it comes
(after "remote: ", as git does), such as the progress of its audit, and the
progress of its own audit when it has at least 10 skills to audit.`,
		RunE: func(c *cobra.Command, args []string) error {
			po.args = args
			return runPush(c, po)
		},
	}
	c.Flags().BoolVar(&po.force, "progress", false, "show progress on stderr even when it is not a terminal")
	a.addJSON(c)
	return c
}

func runPush(c *cobra.Command, po *pushOptions) error {
	a, args := po.app, po.args
	return a.withRepo(func(r *lifecycle.Repo) error {
		o := remotes.PushOptions{Progress: a.progressTo(po.force)}
		if o.Progress != nil {
			o.AuditProgress = hooks.NewProgress(o.Progress, "").Update
		}
		if len(args) > 0 && remotes.Is(r, args[0]) {
			o.Remote, args = args[0], args[1:]
		}
		o.IDs = args
		res, err := a.push(c, r, o)
		if err != nil {
			return err
		}
		return a.printResult(res, func(w io.Writer) error { return pushText(w, res) })
	})
}

// push runs remotes.Push with the environment's skip switch, and prints on stderr the audit's
// warnings, or its findings when it refuses the push.
func (a *app) push(c *cobra.Command, r *lifecycle.Repo, o remotes.PushOptions) (*remotes.PushResult, error) {
	o.Getenv = getenv
	res, err := remotes.Push(c.Context(), r, o)
	var refused *remotes.PushAuditError
	if errors.As(err, &refused) {
		hooks.WritePushRefusal(a.Err, refused.Run, refused.Updates)
	}
	if res != nil {
		for _, w := range res.Warnings {
			a.warn("%s", w)
		}
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

func pushText(w io.Writer, res *remotes.PushResult) error {
	if len(res.Changes) == 0 {
		_, err := fmt.Fprintf(w, "%s is up to date\n", res.Remote)
		return err
	}
	for _, ch := range res.Changes {
		if _, err := fmt.Fprintf(w, "%s: %s\n", res.Remote, changeLine(ch)); err != nil {
			return err
		}
	}
	return nil
}
