package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
)

// rejectOptions are the flags and argument of reject.
type rejectOptions struct {
	app                *app
	id, reason, author string
}

func newRejectCmd(a *app) *cobra.Command {
	o := &rejectOptions{app: a}
	c := &cobra.Command{
		Use:   "reject ID -m REASON",
		Short: "Turn a candidate down, with the reason",
		Long: `Reject candidate ID with a commit that gives REASON, then move its branch to
refs/skillgit/archive/ID, where it stays reachable but is no longer a branch.`,
		Args: exactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.id = args[0]
			return runReject(o)
		},
	}
	c.Flags().StringVarP(&o.reason, "message", "m", "", "why the candidate is rejected (required)")
	addAuthor(c, &o.author)
	a.addJSON(c)
	return c
}

func runReject(o *rejectOptions) error {
	a := o.app
	if o.reason == "" {
		return usageError{fmt.Errorf("reject: -m REASON is required")}
	}
	return a.withRepo(func(r *lifecycle.Repo) error {
		res, err := r.Reject(o.id, o.reason, act(o.author))
		if err != nil {
			return err
		}
		return a.printAction(res, fmt.Sprintf("Rejected %s (%s); archived as %s", res.ID, oneLine(res.Skill, 100), res.Branch))
	})
}
