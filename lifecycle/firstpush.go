package lifecycle

import (
	"errors"
	"path/filepath"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// openFirstPush opens, for the pre-receive check, a repository that has no publish branch yet
// (an empty server's, as `skillgit init --bare` makes it) the way the push would leave it:
// when an update creates the branch that is to be the publish branch (skillgit.publishBranch,
// main, or the branch HEAD names) and its tip holds a skillgit configuration, the repository
// is opened with that branch at the pushed tip, under the configuration it brings, since there
// is none before it. Nil, with no error, when the push makes no skillgit repository.
func openFirstPush(dir string, updates []gitstore.RefUpdate) (*Repo, error) {
	g, err := gitstore.Open(dir)
	if err != nil {
		return nil, nil
	}
	r, err := firstPushAt(g, updates)
	if r == nil {
		g.Close()
		return nil, err
	}
	if r.Dir, err = filepath.Abs(dir); err != nil {
		g.Close()
		return nil, err
	}
	return r, nil
}

// firstPushAt is openFirstPush on an open repository.
func firstPushAt(g *gitstore.Repo, updates []gitstore.RefUpdate) (*Repo, error) {
	if _, _, err := findPublishBranch(g); !errors.Is(err, ErrNotInitialized) {
		return nil, nil
	}
	for _, b := range PublishBranchChoices(g) {
		for _, u := range updates {
			if u.Ref != b || !u.Old.IsZero() || u.New.IsZero() {
				continue
			}
			c, err := g.Commit(u.New)
			if err != nil {
				return nil, nil
			}
			r := &Repo{Git: g, Branch: b, Tip: u.New, Tree: c.TreeHash, firstPush: true}
			cfg, err := r.readConfig(r.Tree)
			if _, ok := errors.AsType[*policy.ConfigError](err); ok {
				// The audit refuses the push, naming the line; it runs under the defaults.
				cfg, err = policy.DefaultConfig(short(b)), nil
			}
			if errors.Is(err, ErrNotInitialized) || (err == nil && cfg.PublishBranch != short(b)) {
				return nil, nil // not a skill repository's publish branch
			}
			if err != nil {
				return nil, err
			}
			r.Config = cfg
			return r, nil
		}
	}
	return nil, nil
}
