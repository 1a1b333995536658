package lifecycle

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// RefUpdate is one ref a push moves: Old is zero for a new ref, New is zero for a deletion.
type RefUpdate struct {
	Ref      string
	Old, New gitstore.Hash
}

// HookRun is what a git hook's audit found.
type HookRun struct {
	// NotSkillgit means the repository is not a skillgit repository: the hook does nothing.
	NotSkillgit bool
	// Skipped means the skip switch is on and nothing was audited.
	Skipped bool
	// Warnings are to be printed on stderr.
	Warnings []string
	// Reports holds the audit of every skill the change touches.
	Reports []audit.SkillReport
	// Problems are the validation errors of staged SKILL.md files.
	Problems []catalog.Problem
	// Refusals say why a protected publish branch refuses an update, one per ref.
	Refusals []string
	// FailOn is the risk that blocks, from the policy of the version compared with.
	FailOn  audit.Risk
	Verdict audit.Verdict
	// Title says what was audited.
	Title string
}

// Blocked reports whether the hook must refuse the commit or push.
func (h *HookRun) Blocked() bool {
	return len(h.Problems) > 0 || len(h.Refusals) > 0 || h.Verdict == audit.VerdictBlocked
}

// AuditStaged is the pre-commit check: it audits the staged version of every skill the commit
// touches (read from the index, so symbolic links and submodules show as what they are) and
// validates its SKILL.md, strictly for a new skill. The policy and the skip switch come from
// HEAD, never from the commit being made.
func AuditStaged(dir string, getenv func(string) string) (*HookRun, error) {
	return AuditStagedScope(dir, StagedScope{}, getenv)
}

// AuditStagedScope is AuditStaged that also audits, whether the commit touches them or not,
// the staged skills that scope names: every one, or those holding the given files. A staged
// .skillgit.yaml or allow list that does not parse is a problem that blocks the commit, and the
// skills folders of HEAD's configuration and of the staged one are both audited.
func AuditStagedScope(dir string, scope StagedScope, getenv func(string) string) (*HookRun, error) {
	r, run, warnings, err := openForHook(dir)
	if r == nil {
		return run, err
	}
	defer r.Close()
	base, baseTree, err := r.headOrPublish()
	if err != nil {
		return nil, err
	}
	staged, err := r.stagedTree(dir, getenv)
	if err != nil {
		return nil, err
	}
	run = &HookRun{Title: scope.title(), Warnings: warnings}
	cfg, policy, err := r.hookPolicy(run, base)
	if err != nil {
		return nil, err
	}
	newCfg, problems, err := r.newPolicyProblems(baseTree, staged, "staged")
	if err != nil {
		return nil, err
	}
	changes, err := r.stagedChanges(dir, scope, cfg, newCfg, baseTree, staged)
	if err != nil {
		return nil, err
	}
	run.Problems = append(problems, r.validateStaged(changes, staged)...)
	return run, r.auditHook(run, cfg, policy, stagedItems(changes), getenv, nil)
}

// stagedChanges lists the skill folders the commit touches in each of dirs, the first being
// the publish branch's skills folder, which the scope widens.
func (r *Repo) stagedChanges(dir string, scope StagedScope, cfg, newCfg *policy.Config, baseTree, staged gitstore.Hash) ([]folderChange, error) {
	var out []folderChange
	for i, d := range policy.SkillDirs(r.Config, cfg, newCfg) {
		s := scope
		if i > 0 {
			s = StagedScope{}
		}
		changes, err := r.stagedFolders(dir, d, s, movedFrom(d, baseTree, cfg, newCfg), staged)
		if err != nil {
			return nil, err
		}
		out = append(out, changes...)
	}
	return out, nil
}

// stagedFolders lists the skill folders the commit touches between skills folder sdir of
// baseTree and of the staged root tree, and, with a scope, the other staged folders it names.
func (r *Repo) stagedFolders(dir, sdir string, scope StagedScope, baseTree, staged gitstore.Hash) ([]folderChange, error) {
	before, err := r.FolderAt(baseTree, sdir)
	if err != nil {
		return nil, err
	}
	after, err := r.FolderAt(staged, sdir)
	if err != nil {
		return nil, err
	}
	fd := &folderDiff{g: r.Git}
	if err := fd.walk(sdir, before, after, 0); err != nil {
		return nil, err
	}
	if scope.empty() {
		return fd.changes, nil
	}
	return r.widenStaged(dir, scope, fd.changes, baseTree, after)
}

// stagedTree is the root tree the index stages; zero when it stages nothing. While
// `git commit -a` or `git commit PATH...` runs the hook, git stages into the file
// GIT_INDEX_FILE names (relative to the folder the hook runs in), not into the repository's
// index.
func (r *Repo) stagedTree(dir string, getenv func(string) string) (gitstore.Hash, error) {
	file := getenv("GIT_INDEX_FILE")
	var h gitstore.Hash
	var ok bool
	var err error
	if file == "" {
		h, ok, err = r.Git.IndexTree("")
	} else {
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		h, ok, err = r.Git.IndexFileTree(file, "")
	}
	if !ok {
		h = gitstore.ZeroHash
	}
	return h, err
}

// headOrPublish is the commit a commit is being made on, or the publish branch's tip when HEAD
// is unborn.
func (r *Repo) headOrPublish() (gitstore.Hash, gitstore.Hash, error) {
	h, err := r.Git.Ref("HEAD")
	if errors.Is(err, gitstore.ErrRefNotFound) {
		return r.Tip, r.Tree, nil
	}
	if err != nil {
		return h, h, err
	}
	c, err := r.Git.Commit(h)
	if err != nil {
		return h, h, err
	}
	return h, c.TreeHash, nil
}

// validateStaged loads each changed skill the way agents do; a new skill is held to the
// reference rules.
func (r *Repo) validateStaged(changes []folderChange, staged gitstore.Hash) []catalog.Problem {
	var out []catalog.Problem
	fsys := r.Git.TreeFS(staged)
	for _, f := range changes {
		if f.head.IsZero() {
			continue
		}
		mode := catalog.Lenient
		if f.base.IsZero() {
			mode = catalog.Strict
		}
		_, problems := catalog.Load(fsys, f.path, mode, false)
		for _, p := range problems {
			if !p.Warning {
				out = append(out, p)
			}
		}
	}
	return out
}

func stagedItems(changes []folderChange) []AuditItem {
	var items []AuditItem
	for _, f := range changes {
		if !f.head.IsZero() {
			items = append(items, AuditItem{Name: f.name(), Path: f.path, Tree: f.head, Base: f.base, BaseLabel: "HEAD"})
		}
	}
	return items
}

// auditHook audits items under cfg and the audit policy ap, those of the version compared with, unless the
// skip switch there, or in the environment, is on.
func (r *Repo) auditHook(run *HookRun, cfg *policy.Config, ap *policy.AuditPolicy, items []AuditItem, getenv func(string) string, progress Progress) error {
	run.FailOn = ap.FailOn
	if skip, warn := policy.AuditSkipped(cfg, getenv); skip {
		run.Skipped, run.Warnings = true, append(run.Warnings, warn)
		return nil
	}
	a := &Auditor{Git: r.Git, Policy: ap, Cache: r.AuditCache(), Progress: progress}
	reports, err := a.Run(items)
	if err != nil {
		return err
	}
	run.Reports = append(run.Reports, reports...)
	run.Verdict = max(run.Verdict, audit.Judge(reports, ap.FailOn))
	return nil
}

// AuditPushed is the pre-push and pre-receive check: for every ref a push moves, it audits
// the skills that differ between the ref's old tip (for a new ref, its merge base with the
// publish branch) and the new one, under the policy and skip switch of that old tip, never
// of the pushed commits, so that a push cannot switch off its own audit. It looks in the
// skills folder of the old tip's configuration and of the new one's, and a pushed
// configuration or allow list that does not parse blocks the push.
// Progress, when set, hears how many of the skills to audit are done.
func AuditPushed(dir string, updates []RefUpdate, getenv func(string) string, progress Progress) (*HookRun, error) {
	r, run, warnings, err := openForHook(dir)
	if r == nil {
		return run, err
	}
	defer r.Close()
	run, err = r.AuditUpdates(updates, getenv, progress)
	if run != nil {
		run.Warnings = append(warnings, run.Warnings...)
	}
	return run, err
}

// AuditUpdates audits every ref update that brings commits, as AuditPushed does. Progress,
// when set, hears how many of the skills of all the updates are audited.
func (r *Repo) AuditUpdates(updates []RefUpdate, getenv func(string) string, progress Progress) (*HookRun, error) {
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
		titles = append(titles, fmt.Sprintf("%s %s..%s", ua.u.Ref, shortID(ua.pr.base.String()), shortID(ua.pr.head.String())))
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
func (r *Repo) rangeOf(u RefUpdate) (pushedRange, error) {
	u, err := r.peelUpdate(u)
	if err != nil {
		return pushedRange{}, err
	}
	pr := pushedRange{base: u.Old, head: u.New}
	// The push that creates the publish branch brings all of it: nothing is there before.
	if pr.base.IsZero() && !(r.firstPush && u.Ref == r.Branch) {
		if pr.base, err = r.Git.MergeBase(u.New, r.Tip); err != nil {
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
func (r *Repo) treeOf(h gitstore.Hash) (gitstore.Hash, error) {
	c, err := r.Git.Commit(h)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	return c.TreeHash, nil
}

// updateAudit is the audit of one ref update, planned: its range, the policy that judges it,
// the problems of the configuration it brings and the skills to audit.
type updateAudit struct {
	u        RefUpdate
	pr       pushedRange
	cfg      *policy.Config
	policy   *policy.AuditPolicy
	problems []catalog.Problem
	items    []AuditItem
	// skipped is the skip switch of the policy, which leaves the items unaudited.
	skipped bool
	// sub collects the warnings of reading the policy.
	sub *HookRun
}

// planUpdate finds what update u brings and what judges it.
func (r *Repo) planUpdate(u RefUpdate, getenv func(string) string) (*updateAudit, error) {
	pr, err := r.rangeOf(u)
	if err != nil {
		return nil, err
	}
	ua := &updateAudit{u: u, pr: pr, sub: &HookRun{}}
	if ua.cfg, ua.policy, err = r.hookPolicy(ua.sub, pr.policy); err != nil {
		return nil, err
	}
	newCfg, problems, err := r.newPolicyProblems(pr.baseTree, pr.headTree, shortID(pr.head.String()))
	if err != nil {
		return nil, err
	}
	ua.problems = problems
	for _, d := range policy.SkillDirs(r.Config, ua.cfg, newCfg) {
		more, err := r.changedSkills(movedFrom(d, pr.baseTree, ua.cfg, newCfg), pr.headTree, d)
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
func (ua *updateAudit) audit(r *Repo, run *HookRun, getenv func(string) string, progress Progress) error {
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
func (r *Repo) peelUpdate(u RefUpdate) (RefUpdate, error) {
	n, err := r.Git.PeelCommit(u.New)
	if err != nil {
		return u, err
	}
	o := u.Old
	if !o.IsZero() {
		if o, err = r.Git.PeelCommit(o); errors.Is(err, gitstore.ErrNotCommit) {
			o, err = gitstore.ZeroHash, nil
		}
	}
	return RefUpdate{Ref: u.Ref, Old: o, New: n}, err
}
