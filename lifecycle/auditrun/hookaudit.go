package auditrun

import (
	"errors"
	"path/filepath"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

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
// HEAD, never from the commit being made. dir is the folder the hook runs in.
//
// It also audits, whether the commit touches them or not, the staged skills that scope names:
// every one, or those holding the given files. A staged .skillgit.yaml or allow list that does
// not parse is a problem that blocks the commit, and the skills folders of HEAD's
// configuration and of the staged one are both audited.
func (r *Runner) AuditStaged(dir string, scope StagedScope, getenv func(string) string) (*HookRun, error) {
	base, baseTree, err := r.headOrPublish()
	if err != nil {
		return nil, err
	}
	staged, err := r.stagedTree(dir, getenv)
	if err != nil {
		return nil, err
	}
	run := &HookRun{Title: scope.title()}
	cfg, policy, err := r.hookPolicy(run, base)
	if err != nil {
		return nil, err
	}
	newCfg, problems, err := r.NewPolicyProblems(baseTree, staged, "staged")
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
func (r *Runner) stagedChanges(dir string, scope StagedScope, cfg, newCfg *policy.Config, baseTree, staged gitstore.Hash) ([]ledger.FolderChange, error) {
	var out []ledger.FolderChange
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
func (r *Runner) stagedFolders(dir, sdir string, scope StagedScope, baseTree, staged gitstore.Hash) ([]ledger.FolderChange, error) {
	d, err := ledger.DiffTrees(ledger.StoreOf(r.Git), sdir, baseTree, staged)
	if err != nil {
		return nil, err
	}
	if scope.empty() {
		return d.Folders, nil
	}
	return r.widenStaged(dir, scope, d.Folders, baseTree, staged)
}

// stagedTree is the root tree the index stages; zero when it stages nothing. While
// `git commit -a` or `git commit PATH...` runs the hook, git stages into the file
// GIT_INDEX_FILE names (relative to the folder the hook runs in), not into the repository's
// index.
func (r *Runner) stagedTree(dir string, getenv func(string) string) (gitstore.Hash, error) {
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
func (r *Runner) headOrPublish() (gitstore.Hash, gitstore.Hash, error) {
	h, err := r.Git.Refs().Get("HEAD")
	if errors.Is(err, gitstore.ErrRefNotFound) {
		return r.Tip, r.Tree, nil
	}
	if err != nil {
		return h, h, err
	}
	c, err := r.Git.Objects().Commit(h)
	if err != nil {
		return h, h, err
	}
	return h, c.TreeHash, nil
}

// validateStaged loads each changed skill the way agents do; a new skill is held to the
// reference rules.
func (r *Runner) validateStaged(changes []ledger.FolderChange, staged gitstore.Hash) []catalog.Problem {
	var out []catalog.Problem
	fsys := r.Git.Objects().TreeFS(staged)
	for _, f := range changes {
		if f.Head.IsZero() {
			continue
		}
		mode := catalog.Lenient
		if f.Base.IsZero() {
			mode = catalog.Strict
		}
		_, problems := catalog.Load(fsys, f.Path, mode, false)
		for _, p := range problems {
			if !p.Warning {
				out = append(out, p)
			}
		}
	}
	return out
}

func stagedItems(changes []ledger.FolderChange) []Item {
	var items []Item
	for _, f := range changes {
		if !f.Head.IsZero() {
			items = append(items, Item{Name: f.Name(), Path: f.Path, Tree: f.Head, Base: f.Base, BaseLabel: "HEAD"})
		}
	}
	return items
}

// auditHook audits items under cfg and the audit policy ap, those of the version compared
// with, unless the skip switch there, or in the environment, is on.
func (r *Runner) auditHook(run *HookRun, cfg *policy.Config, ap *policy.AuditPolicy, items []Item, getenv func(string) string, progress Progress) error {
	run.FailOn = ap.FailOn
	if skip, warn := policy.AuditSkipped(cfg, getenv); skip {
		run.Skipped, run.Warnings = true, append(run.Warnings, warn)
		return nil
	}
	a := r.Auditor(ap)
	a.Progress = progress
	reports, err := a.Run(items)
	if err != nil {
		return err
	}
	run.Reports = append(run.Reports, reports...)
	run.Verdict = max(run.Verdict, audit.Judge(reports, ap.FailOn))
	return nil
}

// AuditAt audits items as the hooks do, under the configuration, audit policy and skip switch
// of commit base.
func (r *Runner) AuditAt(base gitstore.Hash, items []Item, getenv func(string) string) (*HookRun, error) {
	run := &HookRun{}
	cfg, ap, err := r.hookPolicy(run, base)
	if err != nil {
		return nil, err
	}
	return run, r.auditHook(run, cfg, ap, items, getenv, nil)
}
