// Package receive is the server's pre-receive check: the audit of what a push brings and,
// when the publish branch's configuration sets server.protect, the check that the publish
// branch and the canary channel move only by what skillgit makes and that no other branch
// becomes a second publish branch.
package receive

import (
	"fmt"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// protectAdvice is what a refused direct update of a protected publish branch should do instead.
const protectAdvice = "server.protect is on: change skills with `skillgit propose`, `skillgit approve` and `skillgit publish`, " +
	"policy with `skillgit propose --config`, and undo a publish with `skillgit rollback`, then push"

// Check is the pre-receive check of the repository at dir: the audit lifecycle.AuditPushed
// runs, and, when the publish branch's configuration sets server.protect, the check that
// every commit an update adds to the publish branch (or to the canary channel) is what
// skillgit makes: the publish of a candidate approved by people other than its
// ledger.Authors whose audit passes under the policy it lands on (a policy candidate
// included), or a rollback that restores skills to versions published before. Anything else,
// a deletion or a rewrite of the branch's history is refused, and so is an update that could
// make a second publish branch.
//
// In a repository with no publish branch yet, the push that creates it with a skillgit
// configuration is audited whole, under the policy it brings (there is none before it), and
// protection starts with the next push. Progress, when set, hears how many of the skills to
// audit are done.
func Check(dir string, updates []gitstore.RefUpdate, getenv func(string) string, progress auditrun.Progress) (*auditrun.HookRun, error) {
	r, warnings, err := lifecycle.OpenForHook(dir)
	firstPush := false
	if r == nil && err == nil {
		if r, err = openFirstPush(dir, updates); r == nil {
			return &auditrun.HookRun{NotSkillgit: true}, err
		}
		firstPush = true
	}
	if r == nil {
		return nil, err
	}
	defer r.Close()
	a := r.AuditRunner()
	a.FirstPush = firstPush
	run, err := a.AuditUpdates(updates, getenv, progress)
	if err != nil {
		return nil, err
	}
	run.Warnings = append(warnings, run.Warnings...)
	if !r.Config().Server.Protect || firstPush {
		return run, nil
	}
	g := &guard{r: r, getenv: getenv}
	if err := g.protect(run, updates); err != nil {
		return nil, err
	}
	return run, nil
}

// guard judges, on a protected server, the updates of one push against the repository as
// the hook opened it, before the push.
type guard struct {
	r      *lifecycle.Repo
	getenv func(string) string
}

// protect adds to run a refusal for every update that moves the publish branch or canary
// other than skillgit does, or that could make a second publish branch.
func (g *guard) protect(run *auditrun.HookRun, updates []gitstore.RefUpdate) error {
	mainTip := g.r.Tip()
	for _, u := range updates {
		if u.Ref == g.r.Branch() && !u.New.IsZero() {
			mainTip = u.New
		}
	}
	for _, u := range updates {
		var why string
		var err error
		switch u.Ref {
		case g.r.Branch():
			why, err = g.update(u)
		case ledger.CanaryRef:
			why, err = g.canary(u, mainTip)
		default:
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %w", u.Ref, err)
		}
		if why != "" {
			run.Refusals = append(run.Refusals, fmt.Sprintf("%s: %s", gitstore.ShortRef(u.Ref), why))
		}
	}
	return g.branches(run, updates)
}
