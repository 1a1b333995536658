package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
)

// approveOptions are the flags and arguments of approve.
type approveOptions struct {
	app                *app
	ids                []string
	pack, note, author string
	accept             []string
}

func newApproveCmd(a *app) *cobra.Command {
	o := &approveOptions{app: a}
	c := &cobra.Command{
		Use:   "approve ID... | --pack NAME [-m NOTE] [--accept FP[,FP...] -m REASON]",
		Short: "Approve a candidate's current version",
		Long: `Approve candidate ID as it is now, with an empty commit on its branch. A later
revise, or a rebase that changes the skill, voids the approval. Unless
approvals.allow_self is true, the people who wrote the candidate cannot approve it.

--accept FP accepts the audit finding with that fingerprint (or a unique prefix of
at least 8 digits; 'skillgit review ID' shows them), for this version of the
candidate only: a Skillgit-Accept trailer is recorded on the approval, -m REASON
says why. An accepted high finding no longer blocks the publish. A writer of the
candidate cannot accept its findings, and critical findings are never accepted.

When approvals.signed is true, the approval commit is signed with the SSH key
that git config user.signingkey names, as git commit -S does with
gpg.format=ssh (gpg.ssh.program replaces ssh-keygen when set); without a key,
approve refuses. Only approvals whose signature verifies against the publish
branch's approvals.allowed_signers file count.

-m NOTE goes with each approval when several are made; --accept takes a single ID.` + batchHelp("approving candidates"),
		Args: batchArgs(&o.pack),
		RunE: func(c *cobra.Command, args []string) error {
			o.ids = args
			return runApprove(o)
		},
	}
	c.Flags().StringVar(&o.pack, "pack", "", "approve every open candidate of skill pack `NAME`, one at a time")
	c.Flags().StringVarP(&o.note, "message", "m", "", "a `NOTE` kept with the approval; the reason when accepting")
	c.Flags().StringSliceVar(&o.accept, "accept", nil, "accept the findings with these `FP`s (comma-separated or repeated)")
	addAuthor(c, &o.author)
	a.addJSON(c)
	return c
}

func runApprove(o *approveOptions) error {
	a, ids, accept := o.app, o.ids, o.accept
	if len(accept) > 0 && (len(ids) != 1 || o.pack != "") {
		return usageError{fmt.Errorf("--accept accepts findings of one candidate; name a single ID")}
	}
	return a.withRepo(func(r *lifecycle.Repo) error {
		approve := func(id string) (*lifecycle.Result, error) {
			return r.ApproveAccepting(id, o.note, accept, act(o.author))
		}
		if o.pack == "" && len(ids) == 1 {
			res, err := approve(ids[0])
			if err != nil {
				return err
			}
			return a.printAction(res, approvedLine(res, len(accept)))
		}
		ids, ok, err := a.batchTargets(r, ids, o.pack, lifecycle.StateOpen)
		if !ok || err != nil {
			return err
		}
		return a.runBatch(r, batch{label: "approving candidates", act: approve, line: func(res *lifecycle.Result) string { return approvedLine(res, 0) }, held: true}, ids)
	})
}

// approvedLine reports one approval.
func approvedLine(res *lifecycle.Result, accepted int) string {
	msg := fmt.Sprintf("Approved %s (%s): state %s", res.ID, oneLine(res.Skill, 100), res.State)
	if accepted > 0 {
		msg += fmt.Sprintf("; accepted %s, risk now %s", countOf(accepted, "finding", "findings"), res.Risk)
	}
	return msg
}
