package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

var modes = []policy.Mode{policy.ModeManual, policy.ModeAssisted, policy.ModeAutonomous}

type modeJSON struct {
	Mode    policy.Mode `json:"mode"`
	Commit  string      `json:"commit,omitempty"`
	Channel string      `json:"channel,omitempty"`
}

// modeOptions are the flag and argument of mode.
type modeOptions struct {
	app    *app
	args   []string
	author string
}

func newModeCmd(a *app) *cobra.Command {
	o := &modeOptions{app: a}
	c := &cobra.Command{
		Use:   "mode [manual|assisted|autonomous]",
		Short: "Show or set how much of the lifecycle runs without a person",
		Long: `Without an argument, print the lifecycle mode. With one, set it by a commit on
the publish branch that changes only the mode in .skillgit.yaml. With
server.protect on, the change is proposed as a policy candidate instead, which
people other than its author approve and publish like any other.

  manual      every publish needs a person's approval
  assisted    low-risk patches of published skills are approved by policy;
              publishing stays manual
  autonomous  low-risk patches are published at once, low-risk new skills
              to the canary channel only

Medium and high risk are never automatic. For an agent (the MCP server, or
--unattended on propose, revise, publish and rollback) the mode acts only on
the skills in the agents' scope (agent_scope in .skillgit.yaml); its changes to
any other skill wait for a person.`,
		Args: rangeArgs(0, 1),
		RunE: func(c *cobra.Command, args []string) error {
			o.args = args
			return runMode(o)
		},
	}
	addAuthor(c, &o.author)
	a.addJSON(c)
	return c
}

func runMode(o *modeOptions) error {
	a, args := o.app, o.args
	if len(args) == 1 && !slices.Contains(modes, policy.Mode(args[0])) {
		return usageError{fmt.Errorf("mode %q is not one of manual, assisted, autonomous", args[0])}
	}
	return a.withRepo(func(r *lifecycle.Repo) error {
		if len(args) == 0 {
			out := modeJSON{Mode: r.Config().Mode}
			return a.printResult(out, func(w io.Writer) error {
				_, err := fmt.Fprintln(w, out.Mode)
				return err
			})
		}
		m := policy.Mode(args[0])
		res, err := r.SetMode(m, act(o.author))
		if err != nil {
			return err
		}
		a.printNotes(res)
		if res.ID != "" {
			return a.printPolicyProposal(res, "the mode change")
		}
		out := modeJSON{Mode: m, Commit: res.Commit, Channel: res.Channel}
		return a.printResult(out, func(w io.Writer) error {
			_, err := fmt.Fprintf(w, "Mode set to %s on %s as %s\n", m, res.Channel, shortHash(res.Commit))
			return err
		})
	})
}

// printPolicyProposal says that a policy change was proposed as a candidate rather than
// committed, as server.protect asks, and what to do next.
func (a *app) printPolicyProposal(res *lifecycle.Result, what string) error {
	fmt.Fprintf(a.Err, "server.protect is on: %s is proposed as %s; next: skillgit review %s\n", sanitize(what), res.ID, res.ID)
	return a.printAction(res, res.ID)
}
