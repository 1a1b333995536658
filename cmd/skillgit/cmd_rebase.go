package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
)

// rebaseOptions are the flags and argument of rebase.
type rebaseOptions struct {
	app        *app
	id, author string
}

func newRebaseCmd(a *app) *cobra.Command {
	o := &rebaseOptions{app: a}
	c := &cobra.Command{
		Use:   "rebase ID",
		Short: "Bring a candidate up to date with the publish branch",
		Long: `Merge the publish branch into candidate ID, so that it can be published after the
branch changed the same skill. When both changed the same file, it refuses
(exit 4): revise the candidate instead. A rebase that changes the skill's folder
voids the approvals given so far.`,
		Args: exactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.id = args[0]
			return runRebase(o)
		},
	}
	addAuthor(c, &o.author)
	a.addJSON(c)
	return c
}

func runRebase(o *rebaseOptions) error {
	a := o.app
	return a.withRepo(func(r *lifecycle.Repo) error {
		res, err := r.Rebase(o.id, act(o.author))
		if err != nil {
			return err
		}
		return a.printAction(res, fmt.Sprintf("Rebased %s (%s) onto %s: risk %s, state %s",
			res.ID, oneLine(res.Skill, 100), r.Config().PublishBranch, res.Risk, res.State))
	})
}
