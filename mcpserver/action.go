package mcpserver

import (
	"fmt"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// actionOut is what a tool that changes a candidate or a channel reports.
type actionOut struct {
	ID       string       `json:"id" jsonschema:"the candidate's id"`
	Skill    string       `json:"skill"`
	Change   string       `json:"change,omitempty" jsonschema:"create, patch or delete"`
	Risk     string       `json:"risk" jsonschema:"low, medium or high from the audit; unknown when it was skipped"`
	Audit    string       `json:"audit" jsonschema:"the audit's summary"`
	State    string       `json:"state" jsonschema:"open, approved, published, canary or rejected"`
	Channel  string       `json:"channel,omitempty" jsonschema:"the branch a publish or rollback moved"`
	Commit   string       `json:"commit" jsonschema:"the last commit the action wrote"`
	Auto     []string     `json:"auto" jsonschema:"what the mode's policy did on its own, one line each"`
	Warnings []string     `json:"warnings,omitempty"`
	Findings []findingOut `json:"findings,omitempty" jsonschema:"what the audit found"`
	Next     string       `json:"next" jsonschema:"what happens now, and who acts next"`

	// Overlaps are set by create_candidate and patch_candidate.
	Overlaps []ledger.Overlap `json:"overlaps,omitempty" jsonschema:"published skills and open candidates this one resembles most, best first; patch the match instead of keeping two"`
}

// findingOut is one audit finding.
type findingOut struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	File     string `json:"file"`
	Line     int    `json:"line,omitempty"`
	Message  string `json:"message"`
	Snippet  string `json:"snippet,omitempty" jsonschema:"the text found, with secrets redacted"`
}

// actionResult renders a lifecycle result for the agent.
func actionResult(r *lifecycle.Repo, res *lifecycle.Result) actionOut {
	out := actionOut{ID: res.ID, Skill: res.Skill, Change: string(res.Change), Risk: res.Risk, Audit: res.Audit,
		State: string(res.State), Channel: res.Channel, Commit: res.Commit,
		Auto: append([]string{}, res.Auto...), Warnings: res.Warnings, Findings: findings(res.Reports)}
	out.Next = nextStep(r.Config().Mode, r.Config().PublishBranch, res.ID, res.State, res.Risk, res.Change)
	return out
}

// actionError reports an action that failed after it had made its candidate, such as an
// automatic publish that met a conflict, so the agent still learns the candidate's id.
func actionError(res *lifecycle.Result, err error) error {
	if res == nil || res.ID == "" {
		return err
	}
	return fmt.Errorf("candidate %s was recorded (state %s, risk %s), but then: %w", res.ID, res.State, res.Risk, err)
}

func findings(reports []audit.SkillReport) []findingOut {
	var out []findingOut
	for _, sr := range reports {
		if sr.Report == nil {
			continue
		}
		for _, f := range sr.Report.Findings {
			out = append(out, findingOut{Rule: f.RuleID, Severity: f.Severity.String(), File: f.File, Line: f.Line,
				Message: f.Message, Snippet: f.Snippet})
		}
	}
	return out
}
