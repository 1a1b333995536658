package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
)

func (a *app) approveCommand() *cobra.Command {
	var note, author string
	c := &cobra.Command{
		Use:   "approve ID [-m NOTE]",
		Short: "Approve a candidate's current version",
		Long: `Approve candidate ID as it is now, with an empty commit on its branch. A later
revise, or a rebase that changes the skill, voids the approval. Unless
approvals.allow_self is true, the people who wrote the candidate cannot approve it.`,
		Args: exactArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return a.runApprove(args[0], note, author) },
	}
	c.Flags().StringVarP(&note, "message", "m", "", "a `NOTE` kept with the approval")
	addAuthor(c, &author)
	a.addJSON(c)
	return c
}

func (a *app) runApprove(id, note, author string) error {
	return a.withRepo(func(r *lifecycle.Repo) error {
		res, err := r.Approve(id, note, act(author))
		if err != nil {
			return err
		}
		return a.printAction(res, fmt.Sprintf("Approved %s (%s): state %s", res.ID, oneLine(res.Skill, 100), res.State))
	})
}
