package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
)

func (a *app) publishCommand() *cobra.Command {
	var channel, author string
	c := &cobra.Command{
		Use:   "publish ID [--channel canary]",
		Short: "Merge an approved candidate into the publish branch",
		Long: `Publish candidate ID as a merge commit on the publish branch (or on canary with
--channel canary). The audit runs again on what is published: high risk is
refused (exit 3), as is a candidate without the approvals the policy asks for.
If the branch changed the same skill since the candidate was made, publish
refuses with exit 4: 'skillgit rebase ID' brings the candidate up to date.`,
		Args: exactArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return a.runPublish(args[0], channel, author) },
	}
	c.Flags().StringVar(&channel, "channel", "", "publish to `CHANNEL`: main (the publish branch) or canary")
	addAuthor(c, &author)
	a.addJSON(c)
	return c
}

func (a *app) runPublish(id, channel, author string) error {
	return a.withRepo(func(r *lifecycle.Repo) error {
		res, err := r.Publish(id, channel, act(author))
		if err != nil {
			return err
		}
		return a.printAction(res, fmt.Sprintf("Published %s (candidate %s) to %s as %s, risk %s",
			oneLine(res.Skill, 100), res.ID, res.Channel, shortHash(res.Commit), res.Risk))
	})
}
