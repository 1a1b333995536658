package auditrun

import (
	"errors"
	"fmt"
	"strings"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// AuditUpdates is the pre-push and pre-receive check: for every ref a push moves, it audits
// the skills that differ between the ref's old tip (for a new ref, its merge base with the
// publish branch) and the new one, under the policy and skip switch of that old tip, never
// of the pushed commits, so that a push cannot switch off its own audit. It looks in the
// skills folder of the old tip's configuration and of the new one's, and a pushed
// configuration or allow list that does not parse blocks the push. Updates that bring no
// commits (deletions) are left out. Progress, when set, hears how many of the skills of all
// the updates are audited.
func (r *Runner) AuditUpdates(updates []gitstore.RefUpdate, getenv func(string) string, progress Progress) (*HookRun, error) {
	run := &HookRun{FailOn: audit.RiskHigh}
	var plans []*updateAudit
	total := 0
	for _, u := range updates {
		if u.New.IsZero() {
			continue
		}
		ua, err := r.planUpdate(u, getenv)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", u.Ref, err)
		}
		plans = append(plans, ua)
		if !ua.skipped {
			total += len(ua.items)
		}
	}
	var titles []string
	done := 0
	for _, ua := range plans {
		var p Progress
		if progress != nil {
			offset := done
			p = func(d, _ int) { progress(offset+d, total) }
		}
		if err := ua.audit(r, run, getenv, p); err != nil {
			return nil, fmt.Errorf("%s: %w", ua.u.Ref, err)
		}
		if !ua.skipped {
			done += len(ua.items)
		}
		titles = append(titles, fmt.Sprintf("%s %s..%s", ua.u.Ref, gitstore.ShortHash(ua.pr.base.String()), gitstore.ShortHash(ua.pr.head.String())))
	}
	run.Title = strings.Join(titles, ", ")
	return run, nil
}

// pushedRange is what one ref update brings: the commit it is compared with and the trees
// of both ends. Policy is the commit whose policy judges it: base, or for an update with no
// history in common, the publish branch's tip.
type pushedRange struct {
	base, policy, head gitstore.Hash
	baseTree, headTree gitstore.Hash
}

// rangeOf resolves what update u brings. A tag is audited as the commit it points at, from
// the commit its old value pointed at.
func (r *Runner) rangeOf(u gitstore.RefUpdate) (pushedRange, error) {
	u, err := r.peelUpdate(u)
	if err != nil {
		return pushedRange{}, err
	}
	pr := pushedRange{base: u.Old, head: u.New}
	// The push that creates the publish branch brings all of it: nothing is there before.
	if pr.base.IsZero() && !(r.FirstPush && u.Ref == r.Branch) {
		if pr.base, err = r.Git.History().MergeBase(u.New, r.Tip); err != nil {
			return pr, err
		}
	}
	pr.policy = pr.base
	if pr.base.IsZero() {
		pr.policy = r.Tip
	} else if pr.baseTree, err = r.treeOf(pr.base); err != nil {
		return pr, err
	}
	pr.headTree, err = r.treeOf(pr.head)
	return pr, err
}

// treeOf is the root tree of commit h.
func (r *Runner) treeOf(h gitstore.Hash) (gitstore.Hash, error) {
	c, err := r.Git.Objects().Commit(h)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	return c.TreeHash, nil
}

// updateAudit is the audit of one ref update, planned: its range, the policy that judges it,
// the problems of the configuration it brings and the skills to audit.
type updateAudit struct {
	u        gitstore.RefUpdate
	pr       pushedRange
	cfg      *policy.Config
	policy   *policy.AuditPolicy
	problems []catalog.Problem
	items    []Item
	// skipped is the skip switch of the policy, which leaves the items unaudited.
	skipped bool
	// sub collects the warnings of reading the policy.
	sub *HookRun
}

// planUpdate finds what update u brings and what judges it.
func (r *Runner) planUpdate(u gitstore.RefUpdate, getenv func(string) string) (*updateAudit, error) {
	pr, err := r.rangeOf(u)
	if err != nil {
		return nil, err
	}
	ua := &updateAudit{u: u, pr: pr, sub: &HookRun{}}
	if ua.cfg, ua.policy, err = r.hookPolicy(ua.sub, pr.policy); err != nil {
		return nil, err
	}
	newCfg, problems, err := r.NewPolicyProblems(pr.baseTree, pr.headTree, gitstore.ShortHash(pr.head.String()))
	if err != nil {
		return nil, err
	}
	ua.problems = problems
	for _, d := range policy.SkillDirs(r.Config, ua.cfg, newCfg) {
		more, err := r.ChangedSkills(movedFrom(d, pr.baseTree, ua.cfg, newCfg), pr.headTree, d)
		if err != nil {
			return nil, err
		}
		ua.items = append(ua.items, more...)
	}
	if err := r.withPushedAccepts(ua.items, pr.base, pr.head); err != nil {
		return nil, err
	}
	ua.skipped, _ = policy.AuditSkipped(ua.cfg, getenv)
	return ua, nil
}

// audit audits the planned update into run.
func (ua *updateAudit) audit(r *Runner, run *HookRun, getenv func(string) string, progress Progress) error {
	sub := ua.sub
	if err := r.auditHook(sub, ua.cfg, ua.policy, ua.items, getenv, progress); err != nil {
		return err
	}
	run.Skipped = run.Skipped || sub.Skipped
	run.Warnings = append(run.Warnings, sub.Warnings...)
	run.Reports = append(run.Reports, sub.Reports...)
	run.Problems = append(run.Problems, ua.problems...)
	run.Verdict, run.FailOn = max(run.Verdict, sub.Verdict), min(run.FailOn, sub.FailOn)
	return nil
}

// peelUpdate turns the ids of u into commits, following annotated tags. A ref that held
// something other than a commit (a tag of a tree, say) is audited as a new ref.
func (r *Runner) peelUpdate(u gitstore.RefUpdate) (gitstore.RefUpdate, error) {
	n, err := r.Git.Objects().PeelCommit(u.New)
	if err != nil {
		return u, err
	}
	o := u.Old
	if !o.IsZero() {
		if o, err = r.Git.Objects().PeelCommit(o); errors.Is(err, gitstore.ErrNotCommit) {
			o, err = gitstore.ZeroHash, nil
		}
	}
	return gitstore.RefUpdate{Ref: u.Ref, Old: o, New: n}, err
}
