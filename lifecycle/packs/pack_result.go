package packs

import (
	"strings"

	"github.com/skillgit/skillgit/lifecycle"
)

// Result reports what updating one pack did.
type Result struct {
	Pack string `json:"pack"`
	URL  string `json:"url"`
	// Ref is the ref that was fetched, e.g. refs/heads/main.
	Ref string `json:"ref"`
	// Previous is the pin before the update, empty the first time.
	Previous string `json:"previous,omitempty"`
	// Fetched is the pack commit fetched, the new pin.
	Fetched string `json:"fetched"`
	// Candidates are the candidates made, one for each new, changed or deleted skill.
	Candidates []*lifecycle.Result `json:"candidates"`
	// Pending are changes that an open candidate already proposes, as "skill (id)".
	Pending []string `json:"pending,omitempty"`
	// Rejected are changes that a rejected candidate proposed, as "skill (id)"; they are not
	// proposed again until the pack changes the skill once more.
	Rejected []string `json:"rejected,omitempty"`
	// Unchanged are the pack's skills published exactly as the pack has them.
	Unchanged []string `json:"unchanged"`
	// Commit is the publish-branch commit that moved the pin, empty when the pin stayed.
	Commit string `json:"commit,omitempty"`
	// PolicyCandidate is, with server.protect on, the policy candidate that proposes moving
	// the pin, which people approve and publish.
	PolicyCandidate string `json:"policy_candidate,omitempty"`
	// Skipped are the pack's skills that were not proposed, with why; the rest of the pack
	// was proposed all the same.
	Skipped []Skipped `json:"skipped"`
	// NotSelected are skills the pack brought before that its include and exclude now leave
	// out: the pack stops managing them and they stay published as skills of the repository.
	NotSelected []string `json:"not_selected,omitempty"`
	// Error is why the pack as a whole failed (fetch, size budget, a missing path); then
	// nothing of it was written.
	Error    string   `json:"error,omitempty"`
	Warnings []string `json:"-"`
	// failed is the error behind Error.
	failed error
}

// Err is the error that failed the pack as a whole, or nil.
func (up *Result) Err() error { return up.failed }

// Refused reports whether a skill was skipped as invalid, unsafe or refused, or a candidate
// was made that the audit blocks.
func (up *Result) Refused() bool {
	for _, s := range up.Skipped {
		if s.Kind != SkipConflict {
			return true
		}
	}
	for _, c := range up.Candidates {
		if strings.HasPrefix(c.Audit, "blocked") {
			return true
		}
	}
	return false
}

// Conflicted reports whether a skill was skipped because its name is taken.
func (up *Result) Conflicted() bool {
	for _, s := range up.Skipped {
		if s.Kind == SkipConflict {
			return true
		}
	}
	return false
}
