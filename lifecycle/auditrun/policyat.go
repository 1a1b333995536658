package auditrun

import (
	"errors"
	"fmt"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// maxAllowListSize bounds how much of an allow list file is read.
const maxAllowListSize = 1 << 20

// errBadAllowList marks an allow list that does not parse, as opposed to one that cannot be read.
var errBadAllowList = errors.New("invalid allow list")

// errBadAuditRules marks a rules file that does not parse or whose rules fail their examples.
var errBadAuditRules = errors.New("invalid audit rules")

// PolicyAt reads the audit policy committed in commit: its .skillgit.yaml (the defaults when
// it has none), the allow list that file names and the repository's audit rules. label names the commit in errors, such as
// "main" or "origin/main". A policy is always read from the version a change is compared
// with, never from the change, so that a change cannot relax its own audit.
func (r *Runner) PolicyAt(commit gitstore.Hash, label string) (*policy.AuditPolicy, error) {
	cfg, tree, err := r.ConfigAt(commit, label)
	if err != nil {
		return nil, err
	}
	p := &policy.AuditPolicy{Installers: cfg.Audit.Installers, From: label}
	if p.FailOn, err = audit.ParseRisk(cfg.Audit.FailOn); err != nil {
		return nil, fmt.Errorf("%s:%s: audit.fail_on: %w", label, policy.ConfigFile, err)
	}
	if p.Allow, err = r.allowListAt(tree, cfg.Audit.Allow, label); err != nil {
		return nil, err
	}
	if p.Custom, err = r.auditRulesAt(tree, label); err != nil {
		return nil, err
	}
	return p, nil
}

// ConfigAt reads the .skillgit.yaml of commit, or the defaults when it has none, and returns
// it with the commit's root tree.
func (r *Runner) ConfigAt(commit gitstore.Hash, label string) (*policy.Config, gitstore.Hash, error) {
	c, err := r.Git.Objects().Commit(commit)
	if err != nil {
		return nil, gitstore.ZeroHash, fmt.Errorf("%s: %w", label, err)
	}
	data, ok, err := r.Git.Objects().FileAt(c.TreeHash, policy.ConfigFile, policy.MaxConfigSize, label)
	if err != nil || !ok {
		return policy.DefaultConfig(gitstore.ShortRef(r.Branch)), c.TreeHash, err
	}
	cfg, err := policy.ParseConfig(data)
	if err != nil {
		return nil, gitstore.ZeroHash, fmt.Errorf("%s: %w", label, err)
	}
	return cfg, c.TreeHash, nil
}

// allowListAt reads the allow list at file of tree; a missing file is an empty list.
func (r *Runner) allowListAt(tree gitstore.Hash, file, label string) (*audit.AllowList, error) {
	data, ok, err := r.Git.Objects().FileAt(tree, file, maxAllowListSize, label)
	if err != nil || !ok {
		return nil, err
	}
	al, err := audit.ParseAllowList(data)
	if err != nil {
		return nil, fmt.Errorf("%s:%s: %w: %w; fix the file or remove the entry", label, file, errBadAllowList, err)
	}
	return al, nil
}

// auditRulesAt reads the repository's audit rules of tree, compiled; nil when it has none.
func (r *Runner) auditRulesAt(tree gitstore.Hash, label string) (*audit.CustomRules, error) {
	data, ok, err := r.Git.Objects().FileAt(tree, policy.AuditRulesFile, policy.MaxConfigSize, label)
	if err != nil || !ok {
		return nil, err
	}
	c, err := audit.ParseCustomRules(data)
	if err != nil {
		return nil, fmt.Errorf("%s:%s: %w: %w; fix the file", label, policy.AuditRulesFile, errBadAuditRules, err)
	}
	return c, nil
}
