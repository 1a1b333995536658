package receive

import (
	"errors"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// openFirstPush opens a repository that has no publish branch yet (an empty server's, as
// `skillgit init --bare` makes it) the way the push would leave it: when an update creates
// the branch that is to be the publish branch (skillgit.publishBranch, main, or the branch
// HEAD names) and its tip holds a skillgit configuration, the repository is opened with that
// branch at the pushed tip, under the configuration it brings, since there is none before it.
// Nil, with no error, when the push makes no skillgit repository.
func openFirstPush(dir string, updates []gitstore.RefUpdate) (*lifecycle.Repo, error) {
	g, err := gitstore.Open(dir)
	if err != nil {
		return nil, nil
	}
	r, err := firstPushAt(g, dir, updates)
	if r == nil {
		g.Close()
	}
	return r, err
}

// firstPushAt is openFirstPush on an open repository, which skillgit runs in at dir.
func firstPushAt(g *gitstore.Repo, dir string, updates []gitstore.RefUpdate) (*lifecycle.Repo, error) {
	choices := lifecycle.PublishBranchChoices(g)
	for _, b := range choices {
		if _, err := g.Refs().Get(b); !errors.Is(err, gitstore.ErrRefNotFound) {
			return nil, nil // there is a publish branch, or no way to tell
		}
	}
	for _, b := range choices {
		for _, u := range updates {
			if u.Ref == b && u.Old.IsZero() && !u.New.IsZero() {
				return createdAt(g, dir, b, u.New)
			}
		}
	}
	return nil, nil
}

// createdAt opens g with its publish branch, branch, created at tip, under the configuration
// tip holds, running in dir; nil when tip holds none or one that names another publish branch.
func createdAt(g *gitstore.Repo, dir, branch string, tip gitstore.Hash) (*lifecycle.Repo, error) {
	c, err := g.Objects().Commit(tip)
	if err != nil {
		return nil, nil
	}
	data, ok, err := g.Objects().FileAt(c.TreeHash, policy.ConfigFile, policy.MaxConfigSize, gitstore.ShortRef(branch))
	if err != nil || !ok {
		return nil, err // no configuration: not a skill repository's publish branch
	}
	cfg, err := policy.ParseConfig(data)
	if _, bad := errors.AsType[*policy.ConfigError](err); bad {
		// The audit refuses the push, naming the line; it runs under the defaults.
		cfg, err = policy.DefaultConfig(gitstore.ShortRef(branch)), nil
	}
	if err != nil {
		return nil, err
	}
	if cfg.PublishBranch != gitstore.ShortRef(branch) {
		return nil, nil // not a skill repository's publish branch
	}
	return lifecycle.RepoAt(g, branch, tip, cfg, dir)
}
