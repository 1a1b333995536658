package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
)

func (a *app) rebaseCommand() *cobra.Command {
	var author string
	c := &cobra.Command{
		Use:   "rebase ID",
		Short: "Bring a candidate up to date with the publish branch",
		Long: `Merge the publish branch into candidate ID, so that it can be published after the
branch changed the same skill. When both changed the same file, it refuses
(exit 4): revise the candidate instead. A rebase that changes the skill's folder
voids the approvals given so far.`,
		Args: exactArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return a.runRebase(args[0], author) },
	}
	addAuthor(c, &author)
	a.addJSON(c)
	return c
}

func (a *app) runRebase(id, author string) error {
	return a.withRepo(func(r *lifecycle.Repo) error {
		res, err := r.Rebase(id, act(author))
		if err != nil {
			return err
		}
		return a.printAction(res, fmt.Sprintf("Rebased %s (%s) onto %s: risk %s, state %s",
			res.ID, oneLine(res.Skill, 100), r.Config.PublishBranch, res.Risk, res.State))
	})
}
