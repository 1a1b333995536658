package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
)

func (a *app) rollbackCommand() *cobra.Command {
	var commit string
	var actor actorFlags
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
		RunE: func(c *cobra.Command, args []string) error { return a.runRollback(args, commit, actor) },
	}
	c.Flags().StringVar(&commit, "commit", "", "undo the publish `SHA`")
	addActor(c, &actor)
	a.addJSON(c)
	return c
}

func (a *app) runRollback(args []string, commit string, actor actorFlags) error {
	name := ""
	if len(args) == 1 {
		name = args[0]
	}
	if (name == "") == (commit == "") {
		return usageError{fmt.Errorf("rollback: name a skill or give --commit SHA, not both")}
	}
	return a.withRepo(func(r *lifecycle.Repo) error {
		res, err := r.Rollback(name, commit, actor.options())
		if err != nil {
			return err
		}
		return a.printAction(res, fmt.Sprintf("Rolled back %s on %s as %s", oneLine(res.Skill, 100), res.Channel, shortHash(res.Commit)))
	})
}
