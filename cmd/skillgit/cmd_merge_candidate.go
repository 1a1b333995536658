package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
)

// mergeCandidateOptions are the flags and arguments of merge-candidate.
type mergeCandidateOptions struct {
	app                        *app
	newer, older, note, author string
}

func newMergeCandidateCmd(a *app) *cobra.Command {
	o := &mergeCandidateOptions{app: a}
	c := &cobra.Command{
		Use:   "merge-candidate NEW OLDER [-m NOTE]",
		Short: "Fold a duplicate candidate into an older one",
		Long: `Fold candidate NEW, a likely duplicate, into the older candidate OLDER: OLDER's
branch gets a revise commit whose skill folder is NEW's (renamed to OLDER's
skill when the names differ), with a Skillgit-Merged-From trailer and NOTE;
then NEW is rejected with the reason "merged into OLDER". Both must be open
candidates of skill folders. The revision is audited again and OLDER's
approvals no longer count. Next: 'skillgit review OLDER'.`,
		Args: exactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			o.newer, o.older = args[0], args[1]
			return runMergeCandidate(o)
		},
	}
	c.Flags().StringVarP(&o.note, "message", "m", "", "a `NOTE` for the revision")
	addAuthor(c, &o.author)
	a.addJSON(c)
	return c
}

func runMergeCandidate(o *mergeCandidateOptions) error {
	a := o.app
	return a.withRepo(func(r *lifecycle.Repo) error {
		rev, rej, err := r.MergeCandidate(o.newer, o.older, o.note, act(o.author))
		if err != nil {
			a.printNotes(rev)
			return err
		}
		a.printNotes(rej)
		return a.printAction(rev, fmt.Sprintf("Merged %s into %s (%s): revision %s, risk %s; %s is rejected",
			rej.ID, rev.ID, oneLine(rev.Skill, 100), shortHash(rev.Commit), rev.Risk, rej.ID))
	})
}
