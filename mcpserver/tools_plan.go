package mcpserver

import (
	"path/filepath"

	"github.com/skillgit/skillgit/internal/plan"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// maxPlanPathLen bounds the plan path match_skills takes.
const maxPlanPathLen = 4096

// planTaskOut is the task of a plan that match_skills matched.
type planTaskOut struct {
	Text    string `json:"text"`
	Line    int    `json:"line" jsonschema:"the 1-based line of the task in the plan"`
	Heading string `json:"heading,omitempty" jsonschema:"the nearest heading above the task"`
}

// applyPlan takes the task from in.Plan and the limit from in.Step, records them in out, and
// reports whether there is a task to match: false when the plan has no open task left.
func applyPlan(r *lifecycle.Repo, in *matchSkillsIn, out *matchSkillsOut) (bool, error) {
	if err := checkTaskOrPlan(in); err != nil {
		return false, err
	}
	out.Step = in.Step
	if in.Step != "" && in.Limit == 0 {
		n, err := policy.StepLimit(r.Config(), in.Step)
		if err != nil {
			return false, inputError("step", "%v", err)
		}
		in.Limit = n
	}
	if in.Plan == "" {
		return true, nil
	}
	return nextTask(r, in, out)
}

// checkTaskOrPlan insists on exactly one of task and plan.
func checkTaskOrPlan(in *matchSkillsIn) error {
	switch {
	case in.Task == "" && in.Plan == "":
		return inputError("task", "give a task, or a plan to take the next open task from")
	case in.Task != "" && in.Plan != "":
		return inputError("plan", "the plan gives the task; leave out task")
	}
	return nil
}

// nextTask reads the plan and sets in.Task to its next open task.
func nextTask(r *lifecycle.Repo, in *matchSkillsIn, out *matchSkillsOut) (bool, error) {
	path, err := planPath(r, in.Plan)
	if err != nil {
		return false, err
	}
	data, err := plan.Read(path)
	if err != nil {
		return false, err
	}
	t, ok := plan.Next(data)
	if !ok {
		out.PlanDone = true
		return false, nil
	}
	in.Task, out.Task = t.Text, &planTaskOut{Text: t.Text, Line: t.Line, Heading: t.Heading}
	return true, nil
}

// planPath resolves a plan path against the repository's working tree, unless it is absolute.
func planPath(r *lifecycle.Repo, p string) (string, error) {
	if filepath.IsAbs(p) {
		return p, nil
	}
	root := r.Git().WorktreeDir()
	if root == "" {
		return "", inputError("plan", "the repository has no working tree; give an absolute path")
	}
	return filepath.Join(root, p), nil
}
