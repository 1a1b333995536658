// Package agentsync installs the published skills of a channel into the folders agents read
// them from: it plans every target, audits what will be written, and only then writes.
package agentsync

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/published"
	"github.com/skillgit/skillgit/targetdir"
)

// Request says what `skillgit sync` installs where.
type Request struct {
	// Dir is where skillgit runs; a relative Dirs entry starts there. The skill repository
	// is the one the sync file at or above Dir names, or, with no such file or with
	// Project, the repository at or above Dir.
	Dir string
	// Project is the application project to install into, when skillgit runs in the skill
	// repository; its sync file, if any, gives the agents, channel and selection.
	Project string
	// Offline reads a skill repository named by URL from its cached clone without fetching.
	Offline bool
	// Agents are agent ids to install for; with Dirs empty too, sync.targets is used.
	Agents []string
	// Dirs are folders to install into.
	Dirs []string
	// Global installs into the agents' global folders instead of the project's.
	Global bool
	// Channel is main or canary; empty means sync.channel.
	Channel string
	// Symlink links each skill to a stable copy in the git folder instead of copying it.
	Symlink bool
	// DryRun reports what would change and changes nothing.
	DryRun bool
	// Force overwrites or removes installed skills edited in the target.
	Force bool
	// Getenv reads the environment: HOME, the agents' variables and the audit skip switch.
	Getenv func(string) string
	// Commit, when not zero, is the commit to install, such as the tip a watch saw on a
	// remote; it replaces the channel's branch.
	Commit gitstore.Hash
	// AgentsMD are agent instructions files, such as AGENTS.md, whose marked block the sync
	// keeps listing the skills it leaves installed; a relative one starts at the project.
	AgentsMD []string
	// Lock says how a sync into an application project's agent folders uses the project's
	// lock file, .skillgit-sync.lock.
	Lock LockMode
	// Update names the skills LockUpdate moves; empty moves every skill.
	Update []string
	// Context, once cancelled, stops the sync between skills; nil never stops.
	Context context.Context
	// Gitignore adds to the project's .gitignore the lines that ignore the agent folders a
	// sync under the lock wrote and git does not ignore (see Report.Unignored).
	Gitignore bool
	// Step, when set, is told how many of the skills to install, update or remove in the
	// targets are done: from none, before the first, to all of them. A caller shows it as
	// progress.
	Step func(done, total int)
}

// Report is what a sync did, or would do.
type Report struct {
	// Channel is the channel that was installed.
	Channel string
	// Project is the application project installed into; empty when there is none.
	Project string
	// Targets are the folders written.
	Targets []Target
	// Actions holds one entry per skill and target.
	Actions []Item
	// Warnings are printed on stderr.
	Warnings []string
	// Conflicts counts the conflict actions.
	Conflicts int
	// Skipped lists the skills left as they were, once each, with the reason.
	Skipped []Skip
	// Instructions lists the agent instructions files written, or that would be.
	Instructions []string
	// Lock is what the sync did with the project's lock file; nil when none applies.
	Lock *LockReport
	// Unignored names the project's agent folders, written under the lock, that git would
	// list as untracked; nil when there are none or git cannot tell.
	Unignored *Unignored
	// Differences are what Verify finds in the targets once a LockFrozen sync is done, such
	// as a skill edited in the target, which the sync leaves alone; the error is then
	// ErrFrozenDiffers.
	Differences *VerifyReport
}

// Item is what a sync does to one skill in one target.
type Item struct {
	// Skill is the skill's name.
	Skill string
	// Target is the Label of the target.
	Target string
	// Path is the skill's folder in the target.
	Path string
	// Action is what was done, or would be.
	Action targetdir.Action
	// Reason says why, for an action that needs it.
	Reason string
}

// ErrConflict reports a sync that left skills alone because they were edited in the
// target or were not installed by skillgit.
var ErrConflict = fmt.Errorf("%w: some skills were left alone", lifecycle.ErrConflict)

// ErrFrozenDiffers reports a LockFrozen sync after which the targets still differ from the
// lock (Report.Differences): what CI installs must be exactly what the lock pins.
var ErrFrozenDiffers = errors.New("the installed skills differ from the lock")

// repo is the repository a sync reads, with the folder it runs in.
type repo struct {
	*lifecycle.Repo
	// dir is the folder skillgit runs in, absolute; relative paths given by the user start there.
	dir string
	// project is the application project's top folder, absolute; empty when there is none,
	// and then no agent's project folder is a target.
	project string
	// sync is the project's sync file, read from syncPath; nil when there is none.
	sync     *SyncFile
	trusted  *ledger.Trust // the sync file's trust:, read on first use
	signers  []byte        // the bytes of trust:'s allowed-signers file
	proofs   *proofCache   // the proofs made under trust:, opened on first use
	syncPath string
	// appMode is set when skillgit runs in the application project, found by its sync file.
	appMode bool
	// url is the URL the skill repository was fetched from; empty for a local one.
	url string
	// clone is the held mutex of the cached clone read; nil for a local repository.
	clone *cloneMutex
	// warnings are what opening the repository found to warn of.
	warnings []string
	// steps counts the skills written for Request.Step; nil without one.
	steps *steps
}

// Close closes the repository and lets the mutex of its cached clone go.
func (r *repo) Close() error {
	err := r.Repo.Close()
	r.clone.release()
	return err
}

// Run installs the published skills of a channel into the targets of a request: every
// target is planned, what will be written is audited unless the skip switch is on, and only
// then is anything written. A skill that git cannot read or the audit refuses is skipped and
// the others are installed. The report lists every action; a conflict is reported in it and
// also makes the error ErrConflict, and a skipped skill ErrSkipped. Last, the agent
// instructions files of the request are kept.
func Run(req Request) (*Report, error) {
	r, err := openRepo(req)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	r.steps = newSteps(req.Step)
	if err := r.checkSyncFileAgents(); err != nil {
		return nil, err
	}
	targets, warns, err := r.targets(req)
	if err != nil {
		return nil, err
	}
	lk, err := r.openLock(req, targets)
	if err != nil {
		return nil, err
	}
	if req.Gitignore && (lk == nil || lk.mode == LockCheck || req.DryRun) {
		return nil, errors.New("--gitignore ignores the agent folders of an application project that a sync under its lock writes: not with --dir, --target, --channel, --global, --check or --dry-run")
	}
	var opened *openedTargets
	if lk == nil || lk.mode != LockCheck {
		opened = r.openTargets(targets, req)
		defer opened.close()
	}
	src, err := r.sourceFor(req, lk)
	if err != nil {
		return nil, err
	}
	rep := &Report{Channel: src.channel, Project: r.project, Targets: targets, Warnings: append(r.warnings, warns...)}
	if lk != nil {
		rep.Lock = lk.rep
		if lk.rep.Unverified {
			rep.Warnings = append(rep.Warnings, NotVerifiedWarning)
		}
		if lk.mode == LockCheck {
			return rep, nil
		}
	}
	if err := r.checkInstructions(req); err != nil {
		return nil, err
	}
	err = r.install(src, targets, opened, req, rep)
	if err != nil && !isPartial(err) {
		return rep, err
	}
	if lk != nil && lk.mode == LockFrozen && !req.DryRun {
		if verr := lk.verify(r, rep); verr != nil {
			return rep, verr
		}
		if rep.Differences != nil && len(rep.Differences.Problems) > 0 {
			err = errors.Join(err, ErrFrozenDiffers)
		}
	}
	if lk != nil && !req.DryRun {
		if werr := lk.write(r, targets); werr != nil {
			return rep, werr
		}
		if gerr := r.checkIgnored(targets, req, rep); gerr != nil {
			return rep, gerr
		}
	}
	return rep, err
}

// sourceFor reads what a request installs: the channel's tip, or with a lock what it pins.
func (r *repo) sourceFor(req Request, lk *lockRun) (*source, error) {
	if lk != nil {
		return lk.source(r, req)
	}
	return r.source(req)
}

// install plans every target, audits what will be written, writes, and keeps the agent
// instructions files. The targets opened already are planned from where they stand.
func (r *repo) install(src *source, targets []Target, opened *openedTargets, req Request, rep *Report) error {
	plans, err := r.planTargets(src, targets, opened, req)
	defer closePlans(plans)
	if err != nil {
		return err
	}
	if err := r.auditPlans(src, plans, req, rep); err != nil {
		return err
	}
	r.steps.begin(plans)
	err = finish(rep, applyPlans(plans, targets, rep))
	if err != nil && !isPartial(err) {
		return err
	}
	if ierr := r.writeInstructions(src, req, rep); ierr != nil {
		return ierr
	}
	return err
}

// source reads the channel's skills that the sync file selects.
func (r *repo) source(req Request) (*source, error) {
	src, err := r.readSource(req)
	if err != nil {
		return nil, err
	}
	return src, r.selectSkills(src)
}

// source is the published tree of a channel, ready to install.
type source struct {
	channel string
	fsys    fs.FS
	skills  []targetdir.Skill
	held    map[string]Skip
	loaded  map[string]*catalog.Skill
}

// readSource reads the channel's skills and their folder hashes, the git tree ids.
func (r *repo) readSource(req Request) (*source, error) {
	channel := r.channelOf(req)
	root, err := r.ChannelTree(channel)
	if !req.Commit.IsZero() {
		root, err = r.commitTree(req.Commit)
	}
	if err != nil {
		return nil, err
	}
	res, err := r.channelCatalog(root, channel, req)
	if err != nil {
		return nil, withFsckHint(err)
	}
	src := &source{channel: channel, fsys: r.Git().Objects().TreeFS(root), held: map[string]Skip{}, loaded: map[string]*catalog.Skill{}}
	recovered, err := src.recheckUnloaded(res)
	if err != nil {
		return nil, err
	}
	all := append(slices.Clip(res.Skills), recovered...)
	src.skills = make([]targetdir.Skill, 0, len(all))
	src.loaded = make(map[string]*catalog.Skill, len(all))
	for i, c := range r.checkFolders(root, all) {
		s := all[i]
		switch {
		case c.unreadable:
			src.hold(s.Dir, withFsckHint(fmt.Errorf("%s: %s: skill folder unreadable: %w", channel, s.Dir, c.err)), false)
			continue
		case c.refused != nil:
			src.hold(s.Dir, c.refused, true)
			continue
		}
		src.loaded[path.Base(s.Dir)] = s
		src.skills = append(src.skills, targetdir.Skill{Name: path.Base(s.Dir), Dir: s.Dir, Hash: c.entry.Hash.String()})
	}
	return src, nil
}

// channelCatalog lists the channel's skills in its root tree root: from a repository read
// through the cached clone of a URL whose sync file selects skills, the selected ones and
// those --update names alone, the only ones that clone holds.
func (r *repo) channelCatalog(root gitstore.Hash, channel string, req Request) (*catalog.Result, error) {
	names, _, err := r.selection()
	switch {
	case err != nil:
		return nil, err
	case r.url == "" || names == nil:
		return published.CatalogAt(r.Git(), root, r.Config().SkillsDir, channel)
	}
	dir := r.Config().SkillsDir
	res, err := selectedCatalog(r.Git(), root, dir, append(slices.Clone(names), req.Update...))
	if err != nil {
		return nil, published.WithObjectHint(fmt.Errorf("%s:%s: %w", channel, dir, err))
	}
	return res, nil
}

// checkSyncFileAgents makes sure the sync file names only agents of the skill repository's
// agent table.
func (r *repo) checkSyncFileAgents() error {
	if r.sync == nil {
		return nil
	}
	table, err := catalog.Agents(r.Config().Agents)
	if err != nil {
		return err
	}
	return r.sync.CheckAgents(table, r.syncPath)
}

// commitTree is the root tree of commit h.
func (r *repo) commitTree(h gitstore.Hash) (gitstore.Hash, error) {
	c, err := r.Git().Objects().Commit(h)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	return c.TreeHash, nil
}

// planTargets plans the sync of every target. Each plan takes its folder's mutex, so the
// mutexes are taken in the order of the folders' paths: two syncs of the same folders never
// each hold one while they wait for the other. A target opened already is planned from there, or fails
// with the error opening it gave.
func (r *repo) planTargets(src *source, targets []Target, opened *openedTargets, req Request) ([]*targetdir.Folder, error) {
	plans, errs := opened.take()
	if plans == nil {
		plans, errs = make([]*targetdir.Folder, len(targets)), make([]error, len(targets))
	}
	opts := r.syncOptions(req)
	opts.Hold = src.holds()
	for _, i := range targetOrder(targets) {
		if errs[i] != nil {
			return plans, withFsckHint(errs[i])
		}
		var err error
		if plans[i] != nil {
			err = plans[i].Plan(src.fsys, src.skills, opts.Hold)
		} else {
			plans[i], err = targetdir.Plan(src.fsys, src.skills, targets[i].Dir, opts)
		}
		if err != nil {
			return plans, withFsckHint(err)
		}
	}
	return plans, nil
}

// syncOptions are the options of every target's plan, the held skills aside.
func (r *repo) syncOptions(req Request) targetdir.Options {
	opts := targetdir.Options{Force: req.Force, Mode: targetdir.Copy, Context: req.Context, Changed: r.steps.changed()}
	if req.DryRun {
		opts.Disk = targetdir.DryRun
	}
	if req.Symlink {
		opts.Mode = targetdir.Symlink
		opts.LinkStore = r.linkStore()
	}
	return opts
}

// linkStore is the folder in the git directory holding the copies symlink mode links to.
func (r *repo) linkStore() string {
	return filepath.Join(r.Git().CommonDir(), "skillgit", "sync")
}

func closePlans(plans []*targetdir.Folder) {
	for _, p := range plans {
		if p != nil {
			p.Close()
		}
	}
}

// applyPlans writes every target and reports what was done.
func applyPlans(plans []*targetdir.Folder, targets []Target, rep *Report) error {
	var errs []error
	n := len(rep.Actions)
	for _, p := range plans {
		n += len(p.Actions)
	}
	rep.Actions = slices.Grow(rep.Actions, n-len(rep.Actions))
	for i, p := range plans {
		if err := p.Apply(); err != nil {
			errs = append(errs, withFsckHint(err))
		}
		rep.Warnings = append(rep.Warnings, p.Warnings...)
		for _, a := range p.Actions {
			rep.Actions = append(rep.Actions, Item{Skill: a.Skill, Target: targets[i].Label, Path: a.Path, Action: a.Action, Reason: a.Reason})
			if a.Action == targetdir.ActionConflict {
				rep.Conflicts++
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if rep.Conflicts > 0 {
		return ErrConflict
	}
	return nil
}
