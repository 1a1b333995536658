package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
)

// rollbackOptions are the flags and arguments of rollback.
type rollbackOptions struct {
	app    *app
	args   []string
	commit string
	actor  actorFlags
}

func newRollbackCmd(a *app) *cobra.Command {
	o := &rollbackOptions{app: a}
	c := &cobra.Command{
		Use:   "rollback NAME | --commit SHA",
		Short: "Undo a publish on the publish branch",
		Long: `Restore the skill folders a publish changed to what they were before it, with one
commit on the publish branch that says "This reverts commit <sha>." as git does.
NAME undoes the latest publish of that skill that no rollback has undone yet, so running it
again walks back one publish more; --commit SHA undoes that publish. A rollback cannot be
undone: bringing back the version it removed is a publish, so propose that version again as
a candidate, 'skillgit propose NAME --from-rev REV' with REV a commit that holds it (the
publish that brought it, or the commit before the rollback), and have it approved. A NAME
never published is an error that names the published skills close to it.`,
		Args: rangeArgs(0, 1),
		RunE: func(c *cobra.Command, args []string) error {
			o.args = args
			return runRollback(o)
		},
	}
	c.Flags().StringVar(&o.commit, "commit", "", "undo the publish `SHA`")
	addActor(c, &o.actor)
	a.addJSON(c)
	return c
}

func runRollback(o *rollbackOptions) error {
	a, args, commit := o.app, o.args, o.commit
	name := ""
	if len(args) == 1 {
		name = args[0]
	}
	if (name == "") == (commit == "") {
		return usageError{fmt.Errorf("rollback: name a skill or give --commit SHA, not both")}
	}
	return a.withRepo(func(r *lifecycle.Repo) error {
		res, err := r.Rollback(name, commit, o.actor.options())
		if err != nil {
			return err
		}
		return a.printAction(res, fmt.Sprintf("Rolled back %s on %s as %s", oneLine(res.Skill, 100), res.Channel, shortHash(res.Commit)))
	})
}
