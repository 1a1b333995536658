package lifecycle

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// ErrUnknownProfile reports a profile that .skillgit.yaml does not define.
var ErrUnknownProfile = errors.New("no such profile")

// Profile returns the published skills of profile name in the order the profile lists them.
// It fails on a profile that is not defined and on an entry that names no published skill.
func (r *Repo) Profile(name string) ([]*catalog.Skill, error) {
	skills, missing, err := r.resolveProfile(name)
	if err != nil {
		return nil, err
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("profile %q: skill %s %w on %s; publish it or remove it from the profile in %s",
			name, quoteAll(missing), ErrNotFound, short(r.Branch), policy.ConfigFile)
	}
	return skills, nil
}

// resolveProfile returns the published skills of profile name in its order, and the names
// it lists that are not published.
func (r *Repo) resolveProfile(name string) (skills []*catalog.Skill, missing []string, err error) {
	list, ok := r.Config.Profiles[name]
	if !ok {
		return nil, nil, r.unknownProfile(name)
	}
	res, err := r.Published()
	if err != nil {
		return nil, nil, err
	}
	for _, n := range list {
		i := slices.IndexFunc(res.Skills, func(s *catalog.Skill) bool { return s.Name == n })
		if i < 0 {
			missing = append(missing, n)
			continue
		}
		skills = append(skills, res.Skills[i])
	}
	return skills, missing, nil
}

// quoteAll quotes names and joins them with commas.
func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

func (r *Repo) unknownProfile(name string) error {
	known := policy.ProfileNames(r.Config)
	if len(known) == 0 {
		return fmt.Errorf("profile %q: %w: %s on %s defines no profiles; add a profiles: section to it",
			name, ErrUnknownProfile, policy.ConfigFile, short(r.Branch))
	}
	return fmt.Errorf("profile %q: %w in %s on %s; known profiles: %s",
		name, ErrUnknownProfile, policy.ConfigFile, short(r.Branch), strings.Join(known, ", "))
}

// warnDanglingProfiles adds a warning to res for every profile entry that the commit res
// landed leaves without a published skill; the action itself stands.
func (r *Repo) warnDanglingProfiles(res *Result) {
	if res == nil || res.Commit == "" {
		return
	}
	problems, err := r.danglingAt(plumbing.NewHash(res.Commit))
	if err != nil {
		res.addWarning(fmt.Sprintf("warning: profiles could not be checked after the %s: %v", res.Action, err))
		return
	}
	for _, p := range problems {
		res.addWarning("warning: " + policy.ConfigFile + ": " + p.Message(res.Channel))
	}
}

// danglingAt checks the profiles of commit h's configuration against the skills of its tree.
func (r *Repo) danglingAt(h gitstore.Hash) ([]policy.ProfileProblem, error) {
	c, err := r.Git.Commit(h)
	if err != nil {
		return nil, err
	}
	cfg, err := r.readConfig(c.TreeHash)
	if err != nil || len(cfg.Profiles) == 0 {
		return nil, err
	}
	pub, err := r.CatalogAt(c.TreeHash, cfg.SkillsDir, shortID(h.String()))
	if err != nil {
		return nil, err
	}
	return policy.CheckProfiles(cfg, pub.Skills), nil
}
