package lifecycle

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
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
	// FailOn is the risk that blocks, from the policy of the version compared with.
	FailOn  audit.Risk
	Verdict audit.Verdict
	// Title says what was audited.
	Title string
}

// Blocked reports whether the hook must refuse the commit or push.
func (h *HookRun) Blocked() bool { return len(h.Problems) > 0 || h.Verdict == audit.VerdictBlocked }

// openForHook opens the repository a hook runs in; run is set when it is not a skillgit one.
func openForHook(dir string) (*Repo, *HookRun, error) {
	r, err := Open(dir)
	if errors.Is(err, ErrNotInitialized) || errors.Is(err, gitstore.ErrNotRepository) {
		return nil, &HookRun{NotSkillgit: true}, nil
	}
	return r, nil, err
}

// AuditStaged is the pre-commit check: it audits the staged version of every skill the commit
// touches (read from the index, so symbolic links and submodules show as what they are) and
// validates its SKILL.md, strictly for a new skill. The policy and the skip switch come from
// HEAD, never from the commit being made.
func AuditStaged(dir string, getenv func(string) string) (*HookRun, error) {
	return AuditStagedScope(dir, StagedScope{}, getenv)
}

// AuditStagedScope is AuditStaged that also audits, whether the commit touches them or not,
// the staged skills that scope names: every one, or those holding the given files.
func AuditStagedScope(dir string, scope StagedScope, getenv func(string) string) (*HookRun, error) {
	r, run, err := openForHook(dir)
	if r == nil {
		return run, err
	}
	defer r.Close()
	base, baseTree, err := r.headOrPublish()
	if err != nil {
		return nil, err
	}
	staged, ok, err := r.stagedTree(dir, getenv)
	if err != nil {
		return nil, err
	}
	if !ok {
		staged = gitstore.ZeroHash
	}
	changes, err := r.stagedFolders(dir, scope, baseTree, staged)
	if err != nil {
		return nil, err
	}
	run = &HookRun{Title: scope.title()}
	run.Problems = r.validateStaged(changes, staged)
	return run, r.auditHook(run, base, stagedItems(changes), getenv)
}

// stagedFolders lists the skill folders the commit touches between the skills folder of
// baseTree and the staged one, and, with a scope, the other staged folders it names.
func (r *Repo) stagedFolders(dir string, scope StagedScope, baseTree, staged gitstore.Hash) ([]folderChange, error) {
	before, err := r.folderAt(baseTree, r.Config.SkillsDir)
	if err != nil {
		return nil, err
	}
	fd := &folderDiff{g: r.Git}
	if err := fd.walk(r.Config.SkillsDir, before, staged, 0); err != nil {
		return nil, err
	}
	if scope.empty() {
		return fd.changes, nil
	}
	return r.widenStaged(dir, scope, fd.changes, baseTree, staged)
}

// stagedTree is the skills folder as the index stages it. While `git commit -a` or
// `git commit PATH...` runs the hook, git stages into the file GIT_INDEX_FILE names (relative
// to the folder the hook runs in), not into the repository's index.
func (r *Repo) stagedTree(dir string, getenv func(string) string) (gitstore.Hash, bool, error) {
	file := getenv("GIT_INDEX_FILE")
	if file == "" {
		return r.Git.IndexTree(r.Config.SkillsDir)
	}
	if !filepath.IsAbs(file) {
		file = filepath.Join(dir, file)
	}
	return r.Git.IndexFileTree(file, r.Config.SkillsDir)
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
		rel := strings.TrimPrefix(f.path, r.Config.SkillsDir+"/")
		_, problems := catalog.Load(fsys, rel, mode, false)
		for _, p := range problems {
			if !p.Warning {
				p.File = path.Join(r.Config.SkillsDir, p.File)
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

// auditHook audits items under the policy committed in base, unless the skip switch there, or
// in the environment, is on.
func (r *Repo) auditHook(run *HookRun, base gitstore.Hash, items []AuditItem, getenv func(string) string) error {
	cfg, _, err := r.ConfigAt(base, shortID(base.String()))
	if err != nil {
		return err
	}
	policy, err := r.PolicyAt(base, shortID(base.String()))
	if err != nil {
		return err
	}
	run.FailOn = policy.FailOn
	if skip, warn := AuditSkipped(cfg, getenv); skip {
		run.Skipped, run.Warnings = true, append(run.Warnings, warn)
		return nil
	}
	a := &Auditor{Git: r.Git, Policy: policy, Cache: r.AuditCache()}
	reports, err := a.Run(items)
	if err != nil {
		return err
	}
	run.Reports = append(run.Reports, reports...)
	run.Verdict = max(run.Verdict, audit.Judge(reports, policy.FailOn))
	return nil
}

// AuditPushed is the pre-push and pre-receive check: for every ref a push moves, it audits
// the skills that differ between the ref's old tip (for a new ref, its merge base with the
// publish branch) and the new one, under the policy and skip switch of that old tip, never
// of the pushed commits, so that a push cannot switch off its own audit.
func AuditPushed(dir string, updates []RefUpdate, getenv func(string) string) (*HookRun, error) {
	r, run, err := openForHook(dir)
	if r == nil {
		return run, err
	}
	defer r.Close()
	return r.auditUpdates(updates, getenv)
}

// auditUpdates audits every ref update that brings commits, as AuditPushed does.
func (r *Repo) auditUpdates(updates []RefUpdate, getenv func(string) string) (*HookRun, error) {
	run := &HookRun{FailOn: audit.RiskHigh}
	var titles []string
	for _, u := range updates {
		if u.New.IsZero() {
			continue
		}
		title, err := r.auditUpdate(run, u, getenv)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", u.Ref, err)
		}
		titles = append(titles, title)
	}
	run.Title = strings.Join(titles, ", ")
	return run, nil
}

// auditUpdate audits what update u brings into run and returns the range it audited. A tag is
// audited as the commit it points at, from the commit its old value pointed at.
func (r *Repo) auditUpdate(run *HookRun, u RefUpdate, getenv func(string) string) (string, error) {
	u, err := r.peelUpdate(u)
	if err != nil {
		return "", err
	}
	base := u.Old
	if base.IsZero() {
		if base, err = r.Git.MergeBase(u.New, r.Tip); err != nil {
			return "", err
		}
	}
	title := fmt.Sprintf("%s %s..%s", u.Ref, shortID(base.String()), shortID(u.New.String()))
	baseTree := gitstore.ZeroHash
	if !base.IsZero() {
		c, err := r.Git.Commit(base)
		if err != nil {
			return "", err
		}
		baseTree = c.TreeHash
	}
	head, err := r.Git.Commit(u.New)
	if err != nil {
		return "", err
	}
	items, err := r.changedSkills(baseTree, head.TreeHash, r.Config.SkillsDir)
	if err != nil {
		return "", err
	}
	if err := r.withPushedAccepts(items, base, u.New); err != nil {
		return "", err
	}
	sub := &HookRun{}
	if base.IsZero() {
		base = r.Tip
	}
	if err := r.auditHook(sub, base, items, getenv); err != nil {
		return "", err
	}
	run.Skipped = run.Skipped || sub.Skipped
	run.Warnings = append(run.Warnings, sub.Warnings...)
	run.Reports = append(run.Reports, sub.Reports...)
	run.Verdict, run.FailOn = max(run.Verdict, sub.Verdict), min(run.FailOn, sub.FailOn)
	return title, nil
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
