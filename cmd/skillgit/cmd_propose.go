package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/remotes"
)

type proposeOptions struct {
	app                            *app
	args                           []string
	from, fromRev, message, remote string
	delete, push, config           bool
	actor                          actorFlags
}

func newProposeCmd(a *app) *cobra.Command {
	o := &proposeOptions{app: a}
	c := &cobra.Command{
		Use:   "propose PATH|NAME [--from DIR] [--delete] [-m MSG] [--push] | propose NAME --from-rev REV [-m MSG] | propose --config [-m MSG]",
		Short: "Propose a new skill, a patch or a deletion as a candidate branch",
		Long: `Snapshot one skill folder into a new candidate branch, candidate/<id>, audit it
and print the candidate's id. PATH is a skill folder; NAME is a skill in the
working tree's skills folder; --from DIR takes the folder from anywhere, such as
an agent's skills folder. A skill that is not published yet is created, a
published one is patched; --delete NAME proposes removing a published skill.
A new skill must pass 'skillgit validate', which wants the folder named like the
skill's name: a folder code-review/ holding name: code-reviewer is refused.
The candidate is built from git objects: HEAD, the index and the working tree
are left as they are.

NAME --from-rev REV proposes the skill NAME as the commit REV holds it: any git
revision, such as a publish 'skillgit log NAME' lists or main~3. This is how a
version a rollback removed comes back: as a candidate, audited and approved like
any other. A REV that has no skill NAME is an error naming its close names.

The skill is compared with the published skills and the open candidates whose
names and descriptions rank closest to its own, the top 20 of each, and with
every open candidate that shares one of a fixed sample of its body's word
sequences (those with the smallest hashes), whatever its name (name,
description, and body without formatting); the closest are named on stderr and
in --json "overlaps". From dedupe.threshold in .skillgit.yaml (default 0.6) the
candidate is recorded as a likely duplicate, which the mode never approves or
publishes on its own; patch the match instead, or 'skillgit merge-candidate'.

A skill has one candidate per change: proposing what an open candidate of the
skill already holds is refused (exit 1), naming it; 'skillgit revise ID' sends
that candidate a new version. Another version of a skill that has open candidates
is proposed, and a warning (and --json "open_candidates") names them.

The mode may act on it at once (see 'skillgit mode'); what it did is said on
stderr. Next: 'skillgit review ID'.

--config proposes a policy change: .skillgit.yaml, the files of .skillgit/ (allow
list, pack lock, signers) and the allow list, as the working tree holds them.
The configuration and allow list must parse. A policy candidate is reviewed and
published like a skill, and always needs approvals by people other than its
author: the mode never approves or publishes it. With server.protect on, this is
the only way policy reaches the publish branch. With --push, the candidate branch is pushed to
the remote (--remote, default origin) so that it can be opened as a pull request.`,
		Args: rangeArgs(0, 1),
		RunE: func(c *cobra.Command, args []string) error {
			o.args = args
			return runPropose(c, o)
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.from, "from", "", "take the skill folder from `DIR`")
	fl.StringVar(&o.fromRev, "from-rev", "", "propose the skill NAME as the commit `REV` holds it")
	fl.BoolVar(&o.delete, "delete", false, "propose deleting the published skill NAME")
	fl.BoolVar(&o.config, "config", false, "propose the working tree's policy files as a policy change")
	fl.StringVarP(&o.message, "message", "m", "", "explain the change in `MSG`")
	fl.BoolVar(&o.push, "push", false, "push the new candidate branch to the remote")
	fl.StringVar(&o.remote, "remote", "", "push to `REMOTE` (default origin, or the only remote)")
	addActor(c, &o.actor)
	a.addJSON(c)
	return c
}

func runPropose(c *cobra.Command, o *proposeOptions) error {
	a, args := o.app, o.args
	po := lifecycle.ProposeOptions{ActOptions: o.actor.options(), From: o.from, FromRev: o.fromRev, Delete: o.delete, Message: o.message}
	if len(args) == 1 {
		po.Target = args[0]
	}
	propose := func(r *lifecycle.Repo) func(lifecycle.ProposeOptions) (*lifecycle.Result, error) { return r.Propose }
	switch {
	case o.config && (po.Target != "" || po.From != "" || po.FromRev != "" || po.Delete):
		return usageError{fmt.Errorf("propose --config takes no skill, --from, --from-rev or --delete: it proposes the policy files")}
	case po.FromRev != "" && (po.Target == "" || po.From != "" || po.Delete):
		return usageError{fmt.Errorf("propose --from-rev: name the skill to take from REV, without --from or --delete")}
	case o.config:
		propose = func(r *lifecycle.Repo) func(lifecycle.ProposeOptions) (*lifecycle.Result, error) {
			return r.ProposeConfig
		}
	case po.Target == "" && po.From == "":
		return usageError{fmt.Errorf("propose: name a skill folder, a skill, or --from DIR")}
	case po.Delete && po.Target == "":
		return usageError{fmt.Errorf("propose --delete: name the skill to delete")}
	}
	return a.withRepo(func(r *lifecycle.Repo) error {
		res, err := propose(r)(po)
		if err != nil {
			a.printNotes(res)
			return err
		}
		fmt.Fprintf(a.Err, "proposed %s (%s, risk %s) on branch %s; next: skillgit review %s\n",
			sanitize(res.Skill), res.Change, res.Risk, res.Branch, res.ID)
		for _, l := range res.Policy {
			fmt.Fprintf(a.Err, "  %s\n", sanitize(l))
		}
		writeOverlaps(a.Err, res.ID, res.Overlaps)
		if o.push {
			if err := pushCandidate(c, a, r, o.remote, res); err != nil {
				return err
			}
		}
		return a.printAction(res, res.ID)
	})
}

// pushCandidate pushes the branch of a candidate just proposed, or the publish branch when
// the mode published it at once.
func pushCandidate(c *cobra.Command, a *app, r *lifecycle.Repo, remote string, res *lifecycle.Result) error {
	o := remotes.PushOptions{Remote: remote, IDs: []string{res.ID}, Progress: a.progressTo(false)}
	what := "branch " + res.Branch
	if res.State == lifecycle.StatePublished {
		o.IDs, what = nil, "the publish"
	}
	pr, err := a.push(c, r, o)
	if err != nil {
		return fmt.Errorf("%s: proposed, but pushing it failed: %w; `skillgit push` tries again", res.ID, err)
	}
	fmt.Fprintf(a.Err, "pushed %s to %s\n", what, pr.Remote)
	return nil
}
