package lifecycle

import (
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// maxProtectedWalk bounds how many commits one push may add to a protected publish branch.
const maxProtectedWalk = 10000

// protectAdvice is what a refused direct update of a protected publish branch should do instead.
const protectAdvice = "server.protect is on: change skills with `skillgit propose`, `skillgit approve` and `skillgit publish`, " +
	"policy with `skillgit propose --config`, and undo a publish with `skillgit rollback`, then push"

// ReceivePushed is the pre-receive check: the audit AuditPushed runs, and, when the publish branch's
// configuration sets server.protect, the check that every commit an update adds to the
// publish branch (or to the canary channel, see protectCanary) is what skillgit makes: the publish of a candidate approved by people other
// than its ledger.Authors whose audit passes under the policy it lands on (a policy candidate
// included), or a rollback that restores skills to versions published before. Anything else,
// a deletion or a rewrite of the branch's history is refused.
//
// In a repository with no publish branch yet, the push that creates it with a skillgit
// configuration is audited whole, under the policy it brings (there is none before it), and
// protection starts with the next push. Progress, when set, hears how many of the skills to
// audit are done.
func ReceivePushed(dir string, updates []gitstore.RefUpdate, getenv func(string) string, progress auditrun.Progress) (*auditrun.HookRun, error) {
	r, warnings, err := OpenForHook(dir)
	if r == nil && err == nil {
		if r, err = openFirstPush(dir, updates); r == nil {
			return &auditrun.HookRun{NotSkillgit: true}, err
		}
	}
	if r == nil {
		return nil, err
	}
	var run *auditrun.HookRun
	defer r.Close()
	if run, err = r.AuditRunner().AuditUpdates(updates, getenv, progress); err != nil {
		return nil, err
	}
	run.Warnings = append(warnings, run.Warnings...)
	if !r.Config.Server.Protect || r.firstPush {
		return run, nil
	}
	mainTip := r.Tip
	for _, u := range updates {
		if u.Ref == r.Branch && !u.New.IsZero() {
			mainTip = u.New
		}
	}
	for _, u := range updates {
		var why string
		switch u.Ref {
		case r.Branch:
			why, err = r.protectUpdate(u, getenv)
		case canaryRef:
			why, err = r.protectCanary(u, mainTip, getenv)
		default:
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", u.Ref, err)
		}
		if why != "" {
			run.Refusals = append(run.Refusals, fmt.Sprintf("%s: %s", short(u.Ref), why))
		}
	}
	if err := r.protectBranches(run, updates); err != nil {
		return nil, err
	}
	return run, nil
}

// protectUpdate says why update u of the publish branch is refused; empty when every commit
// it adds is one skillgit makes.
func (r *Repo) protectUpdate(u gitstore.RefUpdate, getenv func(string) string) (string, error) {
	switch {
	case u.New.IsZero():
		return "deleting the publish branch is refused", nil
	case u.Old.IsZero():
		return "creating the publish branch again is refused", nil
	}
	added, err := r.firstParentsSince(u.Old, u.New)
	if err != nil || added == nil {
		return "the push rewrites the publish branch's history; it may only add commits to its first-parent line", err
	}
	rr, err := r.at(u.Old)
	if err != nil {
		return "", err
	}
	for _, h := range added {
		c, err := r.Git.Commit(h)
		if err != nil {
			return "", err
		}
		why, err := rr.madeBySkillgit(h, c, getenv)
		if err != nil || why != "" {
			subject, _, _ := ledger.CutSubject(c.Message)
			return fmt.Sprintf("commit %s (%q) %s", shortID(h.String()), bounded(subject, 72), why), err
		}
		if rr, err = r.at(h); err != nil {
			return "", err
		}
	}
	return "", nil
}

// firstParentsSince lists the commits on the first-parent line from tip back to old, oldest
// first; nil when old is not on that line within maxProtectedWalk commits.
func (r *Repo) firstParentsSince(old, tip gitstore.Hash) ([]gitstore.Hash, error) {
	return r.firstParentsUntil(tip, func(h gitstore.Hash) (bool, error) { return h == old, nil })
}

// firstParentsUntil lists the commits on the first-parent line from tip back to the first one
// that stop accepts, that one left out, oldest first; nil when none is met within
// maxProtectedWalk commits or the line ends first.
func (r *Repo) firstParentsUntil(tip gitstore.Hash, stop func(gitstore.Hash) (bool, error)) ([]gitstore.Hash, error) {
	out := []gitstore.Hash{}
	h := tip
	for range maxProtectedWalk {
		done, err := stop(h)
		if err != nil || done {
			reverse(out)
			return out, err
		}
		c, err := r.Git.Commit(h)
		if err != nil || len(c.ParentHashes) == 0 {
			return nil, err
		}
		out = append(out, h)
		h = c.ParentHashes[0]
	}
	return nil, nil
}

// at is the repository as if its publish branch were at commit h: its tree and configuration.
func (r *Repo) at(h gitstore.Hash) (*Repo, error) {
	cfg, tree, err := r.AuditRunner().ConfigAt(h, shortID(h.String()))
	if err != nil {
		return nil, err
	}
	return &Repo{Git: r.Git, Config: cfg, Branch: r.Branch, Tip: h, Tree: tree, Dir: r.Dir}, nil
}

// madeBySkillgit says why commit h, added on top of r's publish branch, is not what skillgit
// makes; empty when it is. The ledger says what the commit is: a publish it has verified is
// then checked against the branch's policy, and a rollback it has verified needs nothing more.
func (r *Repo) madeBySkillgit(h gitstore.Hash, c *object.Commit, getenv func(string) string) (string, error) {
	st, err := r.ledger().Step(h)
	if err != nil {
		return "", err
	}
	ci := ledger.Commit{Hash: h, C: c, Claims: ledger.ParseClaims(c.Message)}
	switch {
	case st.Kind == ledger.KindPublish && st.Via == "skillgit":
		return r.checkPublishMerge(ci, getenv)
	case st.Kind == ledger.KindRollback:
		return "", nil
	case st.Unverified != "":
		return fmt.Sprintf("claims to %s but %s; %s", claimed(st), st.Unverified, protectAdvice), nil
	}
	return "is not the publish of an approved candidate, an approved policy change or a rollback; " + protectAdvice, nil
}

// claimed names what a step's commit claims to be, for messages.
func claimed(st *ledger.Step) string {
	switch {
	case st.Claim == actRollback || (st.Claim == "" && len(st.Commit.C.ParentHashes) == 1):
		return "be a rollback"
	case st.Claim != "":
		return "be a " + st.Claim
	}
	return "publish a candidate"
}

// checkPublishMerge says why a publish merge is not one skillgit would make on r's publish
// branch: the candidate it merges must be in scope, merged exactly, approved by people other
// than its ledger.Authors under the branch's policy, and pass the audit.
func (r *Repo) checkPublishMerge(ci ledger.Commit, getenv func(string) string) (string, error) {
	id := ci.Claims.Get(keyCandidate)
	if ledger.CheckID(id) != nil {
		return "names no candidate it publishes; " + protectAdvice, nil
	}
	ch, err := r.loadChain(id, CandidatePrefix+id, ci.C.ParentHashes[1])
	if err != nil {
		return fmt.Sprintf("merges a branch that is not candidate %s (%v); %s", id, err, protectAdvice), nil
	}
	plan, why, err := r.PlanPublish(ch, ci)
	if why != "" || err != nil {
		return why, err
	}
	return r.approvedAtPublish(plan, getenv)
}

// approvedAtPublish says why a planned publish would not pass: its audit under r's policy,
// or its approvals.
func (r *Repo) approvedAtPublish(plan *PublishPlan, getenv func(string) string) (string, error) {
	c, err := plan.Candidate()
	if err != nil {
		return "", err
	}
	items, err := plan.AuditItems(c)
	if errors.Is(err, ErrRefused) {
		return err.Error(), nil
	}
	if err != nil {
		return "", err
	}
	run, err := r.AuditRunner().AuditAt(r.Tip, items, getenv)
	if err != nil {
		return "", err
	}
	c.Risk = audit.Overall(run.Reports).String()
	if run.Skipped {
		c.Risk = riskUnknown
	}
	if ok, why := ledger.ApprovedEnough(r.Config, c, c.Writers); !ok {
		return fmt.Sprintf("publishes candidate %s, which is not approved: %s; `skillgit approve %s` records an approval", c.ID, why, c.ID), nil
	}
	return "", nil
}

// IsCommitID reports whether s is a full hexadecimal SHA-1 object id.
func IsCommitID(s string) bool {
	if len(s) != 40 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
