package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
)

type reviseOptions struct {
	app           *app
	args          []string
	from, message string
	actor         actorFlags
}

func newReviseCmd(a *app) *cobra.Command {
	o := &reviseOptions{app: a}
	c := &cobra.Command{
		Use:   "revise ID [PATH] [--from DIR] -m FEEDBACK",
		Short: "Record a new version of a candidate, answering review feedback",
		Long: `Snapshot the candidate's skill folder again, as a commit on its branch that
carries FEEDBACK: from --from DIR, else PATH, else the skill's folder in the
working tree. The new version is audited again and the approvals given so far
no longer count.`,
		Args: rangeArgs(1, 2),
		RunE: func(c *cobra.Command, args []string) error {
			o.args = args
			return runRevise(o)
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.from, "from", "", "take the skill folder from `DIR`")
	fl.StringVarP(&o.message, "message", "m", "", "the review `FEEDBACK` this version answers (required)")
	addActor(c, &o.actor)
	a.addJSON(c)
	return c
}

func runRevise(o *reviseOptions) error {
	a, args := o.app, o.args
	if o.message == "" {
		return usageError{fmt.Errorf("revise: -m FEEDBACK is required: say what this version answers")}
	}
	po := lifecycle.ProposeOptions{ActOptions: o.actor.options(), From: o.from, Message: o.message}
	if len(args) == 2 {
		po.Target = args[1]
	}
	return a.withRepo(func(r *lifecycle.Repo) error {
		res, err := r.Revise(args[0], po)
		if err != nil {
			a.printNotes(res)
			return err
		}
		writeOverlaps(a.Err, res.ID, res.Overlaps)
		return a.printAction(res, fmt.Sprintf("Revised %s (%s): risk %s, state %s", res.ID, oneLine(res.Skill, 100), res.Risk, res.State))
	})
}
