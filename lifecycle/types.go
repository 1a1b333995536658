package lifecycle

import (
	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// The candidate and trail types are the ledger's: lifecycle acts on what the ledger reads.
type (
	Candidate       = ledger.Candidate
	Approval        = ledger.Approval
	AcceptedFinding = ledger.AcceptedFinding
	Event           = ledger.Event
	Actor           = ledger.Actor
	State           = ledger.State
	Change          = ledger.Change
	LogEntry        = ledger.LogEntry
)

// The states of a candidate and the changes it makes (see the ledger).
const (
	StateOpen       = ledger.StateOpen
	StateApproved   = ledger.StateApproved
	StateRejected   = ledger.StateRejected
	StatePublished  = ledger.StatePublished
	StateCanary     = ledger.StateCanary
	StateRolledBack = ledger.StateRolledBack
	ChangeCreate    = ledger.ChangeCreate
	ChangePatch     = ledger.ChangePatch
	ChangeDelete    = ledger.ChangeDelete
)

// Result reports what a lifecycle action did.
type Result struct {
	Action string `json:"action"`
	ID     string `json:"id,omitempty"`
	Branch string `json:"branch,omitempty"`
	Skill  string `json:"skill,omitempty"`
	Change Change `json:"change,omitempty"`
	Risk   string `json:"risk,omitempty"`
	Audit  string `json:"audit,omitempty"`
	// Commit is the last commit the action wrote.
	Commit string `json:"commit,omitempty"`
	// Channel is the branch a publish or rollback moved, such as "main" or "canary".
	Channel string `json:"channel,omitempty"`
	// Auto lists what policy did on its own after the action, one line each, e.g.
	// "auto-approved by policy assisted (low-risk patch)".
	Auto []string `json:"auto,omitempty"`
	// PublishedAs is the skill name a candidate was published under with publish --as.
	PublishedAs string `json:"published_as,omitempty"`
	// Reverts is the publish commit a rollback undid.
	Reverts string `json:"reverts,omitempty"`
	// State is the candidate's state after the action.
	State State `json:"state,omitempty"`
	// Accepted lists the findings an approval accepted.
	Accepted []AcceptedFinding `json:"accepted,omitempty"`
	// Policy says, for a policy change, what it changes: one line per configuration key
	// and one per other policy file.
	Policy []string `json:"policy,omitempty"`
	// Reports holds the audit of the skills the action audited.
	Reports  []audit.SkillReport `json:"-"`
	Warnings []string            `json:"-"`
	// Overlaps are the published skills and open candidates a proposed or revised skill
	// resembles most, best first.
	Overlaps []ledger.Overlap `json:"overlaps,omitempty"`
	// OpenCandidates are, for a proposal, the other open candidates of the same skill: one of
	// them could have been revised instead.
	OpenCandidates []string `json:"open_candidates,omitempty"`
}
