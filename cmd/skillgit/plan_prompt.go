package main

import "fmt"

// taskEvent is the task_selected event of prompt --events: the task that --plan chose, or
// null when the plan has none open, with the step.
type taskEvent struct {
	Type string `json:"type"` // task_selected
	*planInfo
}

// checkPlanPrompt refuses --plan and --step where prompt chooses no skills by a task, and
// lets --plan choose them by its task.
func (o *promptOptions) checkPlanPrompt() error {
	switch {
	case o.plan != "" && o.match:
		return usageError{fmt.Errorf("--plan and --match exclude each other; the plan gives the task")}
	case o.plan != "" && o.profile != "":
		return usageError{fmt.Errorf("--plan and --profile exclude each other; choose skills by one of them")}
	case o.step != "" && o.plan == "" && !o.match:
		return usageError{fmt.Errorf("--step applies only with --match or --plan")}
	}
	o.match = o.match || o.plan != ""
	return nil
}

// reportTask names the plan's task: a task_selected event with --events, else a line on
// stderr in text mode.
func (p *promptRun) reportTask(pi *planInfo) {
	if pi == nil || pi.Plan == "" {
		return
	}
	if p.ev.on {
		p.ev.emit(taskEvent{Type: "task_selected", planInfo: pi})
		return
	}
	p.notePlan(pi)
}
