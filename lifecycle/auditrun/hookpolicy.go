package auditrun

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// DefaultsWarning says that a version's policy does not parse and the defaults stand in for it.
func DefaultsWarning(label string, err error) string {
	return fmt.Sprintf("warning: %s: %v; auditing under the default policy until a commit fixes the file", label, err)
}

// hookPolicy is the configuration and audit policy of base for a hook. A configuration, allow
// list or rules file there that does not parse is replaced by the defaults (which skip nothing, trust
// no installer and accept no finding), with a warning: a broken policy must not lock the
// repository, and the commit that fixes it is audited all the same.
func (r *Runner) hookPolicy(run *HookRun, base gitstore.Hash) (*policy.Config, *policy.AuditPolicy, error) {
	label := gitstore.ShortHash(base.String())
	cfg, _, err := r.ConfigAt(base, label)
	if _, ok := errors.AsType[*policy.ConfigError](err); ok {
		run.Warnings = append(run.Warnings, DefaultsWarning(label, err))
		return policy.DefaultConfig(gitstore.ShortRef(r.Branch)), policy.DefaultAuditPolicy(), nil
	}
	if err != nil {
		return nil, nil, err
	}
	ap, err := r.PolicyAt(base, label)
	if errors.Is(err, errBadAllowList) || errors.Is(err, errBadAuditRules) {
		run.Warnings = append(run.Warnings, DefaultsWarning(label, err))
		p := policy.DefaultAuditPolicy()
		p.FailOn, _ = audit.ParseRisk(cfg.Audit.FailOn)
		return cfg, p, nil
	}
	return cfg, ap, err
}

// NewPolicyProblems validates the configuration, allow list and audit rules of head, a version
// a commit or push brings, where they differ from base's: an invalid one is a problem that
// blocks, named with its line. It returns head's configuration, or nil when it has none or it
// does not parse.
func (r *Runner) NewPolicyProblems(baseRoot, headRoot gitstore.Hash, label string) (*policy.Config, []catalog.Problem, error) {
	cfg, problems, err := r.newConfig(baseRoot, headRoot, label)
	if cfg == nil || err != nil {
		return nil, problems, err
	}
	files := []struct {
		path, fix string
		limit     int64
		parse     func([]byte) error
	}{
		{cfg.Audit.Allow, "fix the file or remove the entry", maxAllowListSize, func(b []byte) error { _, err := audit.ParseAllowList(b); return err }},
		{policy.AuditRulesFile, "fix the rule or its examples", policy.MaxConfigSize, func(b []byte) error { _, err := audit.ParseCustomRules(b); return err }},
	}
	for _, f := range files {
		data, ok, err := r.changedFile(baseRoot, headRoot, f.path, f.limit, label)
		if err != nil {
			return cfg, nil, err
		}
		if !ok {
			continue
		}
		if err := f.parse(data); err != nil {
			problems = append(problems, catalog.Problem{File: f.path, Message: err.Error() + "; " + f.fix})
		}
	}
	return cfg, problems, nil
}

// newConfig is head's configuration, validated when it differs from base's; nil when head has
// none or it does not parse, the latter being a problem.
func (r *Runner) newConfig(baseRoot, headRoot gitstore.Hash, label string) (*policy.Config, []catalog.Problem, error) {
	data, ok, err := r.changedFile(baseRoot, headRoot, policy.ConfigFile, policy.MaxConfigSize, label)
	if err != nil || !ok {
		cfg, cerr := r.configOfTree(headRoot, label)
		return cfg, nil, cmp.Or(err, cerr)
	}
	cfg, err := policy.ParseConfig(data)
	if ce, bad := errors.AsType[*policy.ConfigError](err); bad {
		return nil, []catalog.Problem{{File: policy.ConfigFile, Line: ce.Line, Message: ce.Message + "; correct the file and commit again"}}, nil
	}
	return cfg, nil, err
}

// changedFile reads file of headRoot when it differs from baseRoot's; ok is false when it is
// the same or head has none.
func (r *Runner) changedFile(baseRoot, headRoot gitstore.Hash, file string, limit int64, label string) ([]byte, bool, error) {
	he, hok, err := r.Git.Objects().EntryAt(headRoot, file)
	if err != nil || !hok {
		return nil, false, err
	}
	if !baseRoot.IsZero() {
		be, bok, err := r.Git.Objects().EntryAt(baseRoot, file)
		if err != nil {
			return nil, false, err
		}
		if bok && be.Hash == he.Hash && be.Mode == he.Mode {
			return nil, false, nil
		}
	}
	return r.Git.Objects().FileAt(headRoot, file, limit, label)
}

// configOfTree is the configuration a root tree holds; nil when it has none or it does not
// parse.
func (r *Runner) configOfTree(root gitstore.Hash, label string) (*policy.Config, error) {
	data, ok, err := r.Git.Objects().FileAt(root, policy.ConfigFile, policy.MaxConfigSize, label)
	if err != nil || !ok {
		return nil, err
	}
	cfg, err := policy.ParseConfig(data)
	if err != nil {
		return nil, nil
	}
	return cfg, nil
}

// movedFrom is the tree a skills folder d is compared with: baseTree, unless the change moves
// skills_dir to d, in which case every skill there is new to the policy and nothing is compared
// with.
func movedFrom(d string, baseTree gitstore.Hash, cfg, newCfg *policy.Config) gitstore.Hash {
	if newCfg != nil && d == newCfg.SkillsDir && d != cfg.SkillsDir {
		return gitstore.ZeroHash
	}
	return baseTree
}
