package remotes

import (
	"fmt"
	"os"
	"strings"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
)

// PushAuditError reports a push that the audit refused here, before anything was sent: the
// same audit, under the same policy and skip switch, as the pre-push hook runs for `git push`.
type PushAuditError struct {
	// Remote is the remote the push was for.
	Remote string
	// Run holds the findings; Run.Blocked() is true.
	Run *auditrun.HookRun
	// Updates are the ref updates the push would have made, deletions left out.
	Updates []gitstore.RefUpdate
}

// Error names what was refused and what to do next.
func (e *PushAuditError) Error() string {
	return fmt.Sprintf("push to %s %s: the audit rates %s at or above %s; nothing was sent: %s, then push again",
		e.Remote, lifecycle.ErrRefused, e.Run.Title, e.Run.FailOn, e.advice())
}

// Unwrap makes the error lifecycle.ErrRefused.
func (e *PushAuditError) Unwrap() error { return lifecycle.ErrRefused }

// advice says how to fix what the push brings: through its candidates when it sends some.
func (e *PushAuditError) advice() string {
	var ids []string
	for _, u := range e.Updates {
		if id, ok := strings.CutPrefix(u.Ref, lifecycle.CandidatePrefix); ok {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return "fix the skills in a new commit"
	}
	return fmt.Sprintf("`skillgit review ID` shows the findings and `skillgit revise ID --from DIR -m MSG` records a fix, for %s",
		strings.Join(ids, ", "))
}

// gatePush audits what plan p sends as the pre-push hook would, and returns the run (for its
// warnings) or a *PushAuditError when the audit refuses. Progress hears how far it got.
func (r repo) gatePush(rm *remote, p *pushPlan, getenv func(string) string, progress auditrun.Progress) (*auditrun.HookRun, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if len(p.updates) == 0 {
		return &auditrun.HookRun{}, nil
	}
	run, err := r.AuditRunner().AuditUpdates(p.updates, getenv, progress)
	if err != nil {
		return nil, fmt.Errorf("auditing the push to %s: %w", rm.name, err)
	}
	if run.Blocked() {
		return run, &PushAuditError{Remote: rm.name, Run: run, Updates: p.updates}
	}
	return run, nil
}
