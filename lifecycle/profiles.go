package lifecycle

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/policy"
	"github.com/skillgit/skillgit/lifecycle/published"
)

// warnDanglingProfiles adds a warning to res for every profile entry that the commit res
// landed leaves without a published skill; the action itself stands.
func (t *tx) warnDanglingProfiles(res *Result) {
	if res == nil || res.Commit == "" {
		return
	}
	problems, err := t.danglingAt(plumbing.NewHash(res.Commit))
	if err != nil {
		res.addWarning(fmt.Sprintf("warning: profiles could not be checked after the %s: %v", res.Action, err))
		return
	}
	for _, p := range problems {
		res.addWarning("warning: " + policy.ConfigFile + ": " + p.Message(res.Channel))
	}
}

// danglingAt checks the profiles of commit h's configuration against the skills of its tree.
func (t *tx) danglingAt(h gitstore.Hash) ([]policy.ProfileProblem, error) {
	r := t.r
	c, err := r.git.Objects().Commit(h)
	if err != nil {
		return nil, err
	}
	cfg, err := r.readConfig(c.TreeHash)
	if err != nil || len(cfg.Profiles) == 0 {
		return nil, err
	}
	pub, err := published.CatalogAt(r.git, c.TreeHash, cfg.SkillsDir, gitstore.ShortHash(h.String()))
	if err != nil {
		return nil, err
	}
	return policy.CheckProfiles(cfg, pub.Skills), nil
}
