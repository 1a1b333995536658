package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
)

func (a *app) publishCommand() *cobra.Command {
	var channel, author, pack string
	c := &cobra.Command{
		Use:   "publish ID... | --pack NAME [--channel canary]",
		Short: "Merge an approved candidate into the publish branch",
		Long: `Publish candidate ID as a merge commit on the publish branch (or on canary with
--channel canary). The audit runs again on what is published: high risk is
refused (exit 3), as is a candidate without the approvals the policy asks for.
If the branch changed the same skill since the candidate was made, publish
refuses with exit 4: 'skillgit rebase ID' brings the candidate up to date.` + batchHelp,
		Args: batchArgs(&pack),
		RunE: func(c *cobra.Command, args []string) error { return a.runPublish(args, pack, channel, author) },
	}
	c.Flags().StringVar(&pack, "pack", "", "publish every open candidate of skill pack `NAME`, one at a time")
	c.Flags().StringVar(&channel, "channel", "", "publish to `CHANNEL`: main (the publish branch) or canary")
	addAuthor(c, &author)
	a.addJSON(c)
	return c
}

func (a *app) runPublish(ids []string, pack, channel, author string) error {
	return a.withRepo(func(r *lifecycle.Repo) error {
		publish := func(id string) (*lifecycle.Result, error) { return r.Publish(id, channel, act(author)) }
		if pack == "" && len(ids) == 1 {
			res, err := publish(ids[0])
			if err != nil {
				return err
			}
			return a.printAction(res, publishedLine(res))
		}
		ids, ok, err := a.batchTargets(r, ids, pack)
		if !ok || err != nil {
			return err
		}
		return a.runBatch(r, ids, publish, publishedLine)
	})
}

// publishedLine reports one publish.
func publishedLine(res *lifecycle.Result) string {
	return fmt.Sprintf("Published %s (candidate %s) to %s as %s, risk %s",
		oneLine(res.Skill, 100), res.ID, res.Channel, shortHash(res.Commit), res.Risk)
}
