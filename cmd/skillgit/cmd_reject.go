package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
)

func (a *app) rejectCommand() *cobra.Command {
	var reason, author string
	c := &cobra.Command{
		Use:   "reject ID -m REASON",
		Short: "Turn a candidate down, with the reason",
		Long: `Reject candidate ID with a commit that gives REASON, then move its branch to
refs/skillgit/archive/ID, where it stays reachable but is no longer a branch.`,
		Args: exactArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return a.runReject(args[0], reason, author) },
	}
	c.Flags().StringVarP(&reason, "message", "m", "", "why the candidate is rejected (required)")
	addAuthor(c, &author)
	a.addJSON(c)
	return c
}

func (a *app) runReject(id, reason, author string) error {
	if reason == "" {
		return usageError{fmt.Errorf("reject: -m REASON is required")}
	}
	return a.withRepo(func(r *lifecycle.Repo) error {
		res, err := r.Reject(id, reason, act(author))
		if err != nil {
			return err
		}
		return a.printAction(res, fmt.Sprintf("Rejected %s (%s); archived as %s", res.ID, oneLine(res.Skill, 100), res.Branch))
	})
}
