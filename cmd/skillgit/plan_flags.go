package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/internal/plan"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// planFlags are the flags of match and prompt that take the task from a plan and the limit
// from the step of the task.
type planFlags struct {
	plan, step    string
	explicitLimit bool
}

// addPlanFlags declares --plan and --step on c.
func (f *planFlags) addPlanFlags(c *cobra.Command) {
	c.Flags().StringVar(&f.plan, "plan", "", "take the task from the first open item of the Markdown plan `FILE`")
	c.Flags().StringVar(&f.step, "step", "", "list as many skills as .skillgit.yaml gives `STEP` (implementation or review)")
}

// planArgs checks the arguments with next, except that with --plan there may be no TASK.
func (f *planFlags) planArgs(next cobra.PositionalArgs) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		f.explicitLimit = c.Flags().Changed("limit")
		switch {
		case f.plan != "" && len(args) > 0:
			return usageError{fmt.Errorf("--plan gives the task; leave out TASK")}
		case f.plan == "":
			if err := next(c, args); err != nil {
				return err
			}
		}
		return checkStep(f.step)
	}
}

// checkStep refuses, as a usage error, a step that is not one of the known ones.
func checkStep(step string) error {
	if step == "" || step == policy.StepImplementation || step == policy.StepReview {
		return nil
	}
	return usageError{fmt.Errorf("--step is %q; it must be %s or %s", step, policy.StepImplementation, policy.StepReview)}
}

// planInfo is what --plan and --step add to the JSON of match and prompt and to the events.
// Task is the task matched; with --plan it is null when the plan has no open task.
type planInfo struct {
	Plan    string  `json:"plan,omitempty"`
	Task    *string `json:"task"`
	Line    int     `json:"line,omitempty"`
	Heading string  `json:"heading,omitempty"`
	Step    string  `json:"step,omitempty"`
}

// resolvePlan sets *task to the plan's next open task and *limit to the step's limit under
// cfg, which may be nil, unless --limit was given; path resolves the plan file's name. It
// returns nil without --plan and --step.
func (f *planFlags) resolvePlan(path func(string) string, cfg *policy.Config, task *string, limit *int) (*planInfo, error) {
	if f.plan == "" && f.step == "" {
		return nil, nil
	}
	info := &planInfo{Plan: f.plan, Step: f.step, Task: task}
	if f.step != "" && !f.explicitLimit {
		n, err := policy.StepLimit(cfg, f.step)
		if err != nil {
			return nil, err
		}
		*limit = n
	}
	if f.plan == "" {
		return info, nil
	}
	data, err := plan.Read(path(f.plan))
	if err != nil {
		return nil, err
	}
	t, ok := plan.Next(data)
	if !ok {
		*task, info.Task = "", nil
		return info, nil
	}
	*task, info.Line, info.Heading = t.Text, t.Line, t.Heading
	return info, nil
}

// open reports whether there is a task to match: always, unless a plan has none left.
func (p *planInfo) open() bool { return p == nil || p.Task != nil }

// clear empties a match result when the plan has no open task, so hints select nothing.
func (p *planInfo) clear(res *catalog.MatchResult) {
	if !p.open() {
		res.Matches, res.UnknownHints = nil, nil
	}
}

// planNote is the line on stderr that names the plan's task, or says there is none.
func (p *planInfo) planNote() string {
	switch {
	case p == nil || p.Plan == "":
		return ""
	case p.Task == nil:
		return fmt.Sprintf("%s: no open task; nothing to select", sanitize(p.Plan))
	}
	return fmt.Sprintf("task (%s:%d): %s", sanitize(p.Plan), p.Line, sanitize(*p.Task))
}

// notePlan names the plan's task on stderr in text mode.
func (a *app) notePlan(p *planInfo) {
	if n := p.planNote(); n != "" && !a.json {
		fmt.Fprintln(a.Err, n)
	}
}

// planHelp ends the help of match and prompt.
const planHelp = `

--plan FILE takes the task from the first open item ("- [ ] ...", "1. [ ] ...") of
a Markdown plan, or from the first open item nested under it, if any. Items in
code fences, items written "[ ]?" and items under a Verification or Manual QA
heading are left out. The task's $NAME and "skill: NAME" hints rank first. A plan
with no open task selects nothing (exit 0); a plan over 4 MiB is refused.
--step implementation|review lists as many skills as selection.implementation
(default 2) or selection.review (default 1) of .skillgit.yaml give; --limit wins.`
