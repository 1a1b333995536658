package lifecycle

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// AuditStagedScope is the pre-commit check of the repository a hook runs in at dir: see
// auditrun.Runner.AuditStaged.
func AuditStagedScope(dir string, scope auditrun.StagedScope, getenv func(string) string) (*auditrun.HookRun, error) {
	return auditForHook(dir, func(a *auditrun.Runner) (*auditrun.HookRun, error) { return a.AuditStaged(dir, scope, getenv) })
}

// AuditPushed is the pre-push check of the repository a hook runs in at dir: see
// auditrun.Runner.AuditUpdates. Progress, when set, hears how many of the skills to audit
// are done.
func AuditPushed(dir string, updates []gitstore.RefUpdate, getenv func(string) string, progress auditrun.Progress) (*auditrun.HookRun, error) {
	return auditForHook(dir, func(a *auditrun.Runner) (*auditrun.HookRun, error) { return a.AuditUpdates(updates, getenv, progress) })
}

// auditForHook opens the repository a hook runs in at dir and runs check on its audit; the
// warnings of opening it come first.
func auditForHook(dir string, check func(*auditrun.Runner) (*auditrun.HookRun, error)) (*auditrun.HookRun, error) {
	r, warnings, err := OpenForHook(dir)
	if r == nil {
		if err != nil {
			return nil, err
		}
		return &auditrun.HookRun{NotSkillgit: true}, nil
	}
	defer r.Close()
	run, err := check(r.AuditRunner())
	if run != nil {
		run.Warnings = append(warnings, run.Warnings...)
	}
	return run, err
}

// OpenForHook opens the repository a hook runs in at dir; neither a repository nor an error
// when it is not a skillgit one. A publish branch whose configuration does not parse does not
// lock the repository: the repository opens under the defaults and warnings says so, so that
// the commit that fixes the file can still be made and audited.
func OpenForHook(dir string) (r *Repo, warnings []string, err error) {
	r, err = Open(dir)
	if errors.Is(err, ErrNotInitialized) || errors.Is(err, gitstore.ErrNotRepository) {
		return nil, nil, nil
	}
	if ce, ok := errors.AsType[*policy.ConfigError](err); ok {
		r, err = openUnderDefaults(dir)
		if err != nil {
			return nil, nil, err
		}
		return r, []string{auditrun.DefaultsWarning(gitstore.ShortRef(r.branch), ce)}, nil
	}
	return r, nil, err
}

// openUnderDefaults opens the repository at dir with the default configuration in place of
// its publish branch's, which does not parse.
func openUnderDefaults(dir string) (*Repo, error) {
	g, err := gitstore.Open(dir)
	if err != nil {
		return nil, err
	}
	branch, tip, err := findPublishBranch(g)
	if err == nil {
		var r *Repo
		if r, err = RepoAt(g, branch, tip, policy.DefaultConfig(gitstore.ShortRef(branch)), dir); err == nil {
			return r, nil
		}
	}
	g.Close()
	return nil, err
}

// RepoAt is g as a skillgit repository whose publish branch, branch, stands at commit tip,
// read under configuration cfg in place of the one tip holds: for a publish branch whose
// configuration does not parse, and for the server's check of a push, which judges each
// commit the push adds under the policy of the commit before it. dir is the folder skillgit
// runs in, made absolute (see Dir); empty leaves it unset. A Repo's folder is given here and
// never changed afterwards, so a caller passes on another Repo's with r.Dir().
func RepoAt(g *gitstore.Repo, branch string, tip gitstore.Hash, cfg *policy.Config, dir string) (*Repo, error) {
	c, err := g.Objects().Commit(tip)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", gitstore.ShortRef(branch), err)
	}
	r := &Repo{git: g, branch: branch, tip: tip, tree: c.TreeHash, cfg: cfg}
	if dir != "" {
		if r.dir, err = filepath.Abs(dir); err != nil {
			return nil, err
		}
	}
	return r, nil
}
