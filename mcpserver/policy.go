package mcpserver

import (
	"fmt"

	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

type modeOut struct {
	Mode              string   `json:"mode" jsonschema:"manual, assisted or autonomous"`
	ApprovalsRequired int      `json:"approvals_required" jsonschema:"approvals by people a candidate needs"`
	AllowSelf         bool     `json:"allow_self" jsonschema:"whether a candidate's own author counts among its approvers"`
	SignedApprovals   bool     `json:"signed_approvals" jsonschema:"whether only approvals signed by an allowed signer's SSH key count"`
	Audit             string   `json:"audit" jsonschema:"on, or skipped"`
	FailOn            string   `json:"fail_on" jsonschema:"the risk at which the audit blocks"`
	PublishBranch     string   `json:"publish_branch"`
	AgentMay          []string `json:"agent_may" jsonschema:"what an agent may do through this server"`
	Automatic         []string `json:"automatic" jsonschema:"what the mode does without a person"`
	NeedsPerson       []string `json:"needs_person" jsonschema:"what always waits for a person"`
	AgentScope        []string `json:"agent_scope" jsonschema:"name globs of the skills an agent manages, besides those whose metadata.managed-by is skillgit"`
}

func (s *Server) getMode(r *lifecycle.Repo, _ noInput) (modeOut, error) {
	cfg := r.Config()
	skipped, _ := policy.AuditSkipped(cfg, s.getenv)
	out := modeOut{Mode: string(cfg.Mode), ApprovalsRequired: cfg.Approvals.Required, AllowSelf: cfg.Approvals.AllowSelf,
		SignedApprovals: cfg.Approvals.Signed, Audit: "on", FailOn: cfg.Audit.FailOn, PublishBranch: cfg.PublishBranch,
		AgentMay:    agentMay(cfg.Mode, cfg.PublishBranch, skipped),
		Automatic:   automatic(cfg.Mode, cfg.PublishBranch),
		NeedsPerson: needsPerson(cfg.Mode, cfg.PublishBranch), AgentScope: cfg.AgentScopeGlobs()}
	if skipped {
		out.Audit = "skipped"
		out.Automatic = []string{"nothing: with the audit skipped no change is rated low risk, so nothing is approved or published without a person"}
	}
	return out, nil
}

// agentMay lists what an agent may do. Publishing and rolling back are listed only where the
// code lets an agent do them: in autonomous mode with the audit on, for what the mode would
// publish itself (lifecycle's checkUnattended and checkUnattendedRollback).
func agentMay(mode policy.Mode, branch string, auditSkipped bool) []string {
	out := []string{
		"list, read and match published skills (list_skills, read_skill, match_skills)",
		"propose new skills, new versions and deletions (create_candidate, delete_candidate)",
		"answer review feedback with a new version (patch_candidate)",
		"list and review candidates (list_candidates, review_candidate)",
	}
	if mode == policy.ModeAutonomous && !auditSkipped {
		out = append(out,
			fmt.Sprintf("publish what the mode would publish itself (publish_candidate): a low-risk patch to %s, a low-risk new skill to canary", branch),
			fmt.Sprintf("roll back a skill's latest publish still in effect, or a publish commit given, when the version restored is rated low risk and the skill stays on %s (rollback_skill)", branch))
	}
	return out
}

func automatic(mode policy.Mode, branch string) []string {
	switch mode {
	case policy.ModeAssisted:
		return []string{"a low-risk patch of a published skill is approved by policy at once; a person publishes it"}
	case policy.ModeAutonomous:
		return []string{
			fmt.Sprintf("a low-risk patch of a published skill is approved and published to %s at once", branch),
			fmt.Sprintf("a low-risk new skill is approved and published to the canary channel at once; a person publishes it to %s", branch),
		}
	}
	return []string{"nothing: every candidate waits for a person's approval, and a person publishes it"}
}

func needsPerson(mode policy.Mode, branch string) []string {
	out := []string{
		"every approval: there is no approve tool (`skillgit approve ID`)",
		"any change the audit rates medium risk",
		"deletions, and updates that come from skill packs",
		"a change the audit rates high risk cannot be published while the audit is on",
		"bringing back a rolled-back version: it is proposed again as a candidate and approved like any change",
		"any change, publish or rollback an agent asks for of a skill outside the agents' scope (agent_scope, or metadata.managed-by: skillgit in the published SKILL.md): people's skills and skill packs' skills",
	}
	switch mode {
	case policy.ModeAutonomous:
		return append(out, fmt.Sprintf("publishing a new skill to %s", branch),
			"a rollback that removes a skill, brings back a deleted one or restores a version not rated low risk (`skillgit rollback NAME`)")
	case policy.ModeAssisted:
		return append(out, "every publish and every rollback (`skillgit publish ID`, `skillgit rollback NAME`)")
	}
	return append(out, "every approval, every publish and every rollback (`skillgit approve ID`, `skillgit publish ID`, `skillgit rollback NAME`)")
}

// nextStep tells an agent what becomes of a candidate now, and who acts next.
func nextStep(mode policy.Mode, branch, id string, state lifecycle.State, risk string, change lifecycle.Change) string {
	person := fmt.Sprintf("a person must review and approve it: `skillgit review %s`, `skillgit approve %s`, then `skillgit publish %s`", id, id, id)
	switch state {
	case lifecycle.StatePublished:
		return fmt.Sprintf("published on %s; agents see it once it is synced (`skillgit sync`)", branch)
	case lifecycle.StateCanary:
		return fmt.Sprintf("published to the canary channel; a person publishes it to %s: `skillgit publish %s`", branch, id)
	case lifecycle.StateRolledBack:
		return fmt.Sprintf("published, then rolled back on %s; propose the change again with create_candidate if it is still wanted", branch)
	case lifecycle.StateRejected:
		return "rejected; propose the change again with create_candidate if it is still wanted"
	case lifecycle.StateApproved:
		if mode == policy.ModeAutonomous && risk == "low" && change == lifecycle.ChangePatch {
			return "approved; publish_candidate publishes it"
		}
		return fmt.Sprintf("approved; a person publishes it: `skillgit publish %s`", id)
	}
	switch risk {
	case "high":
		return "the audit rates it high risk, which cannot be published while the audit is on; remove what the findings point at (review_candidate lists them) and send a new version with patch_candidate"
	case "medium":
		return "the audit rates it medium risk, which always needs a person; " + person
	}
	return "waits for a person; " + person
}
