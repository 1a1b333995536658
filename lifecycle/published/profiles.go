package published

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// ErrUnknownProfile reports a profile that .skillgit.yaml does not define.
var ErrUnknownProfile = errors.New("no such profile")

// Profile returns the published skills of profile name in the order the profile lists them.
// It fails on a profile that is not defined and on an entry that names no published skill.
func (c *Channel) Profile(name string) ([]*catalog.Skill, error) {
	skills, missing, err := c.resolveProfile(name)
	if err != nil {
		return nil, err
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("profile %q: skill %s %w on %s; publish it or remove it from the profile in %s",
			name, quoteAll(missing), ErrNotFound, c.label(), policy.ConfigFile)
	}
	return skills, nil
}

// resolveProfile returns the published skills of profile name in its order, and the names
// it lists that are not published.
func (c *Channel) resolveProfile(name string) (skills []*catalog.Skill, missing []string, err error) {
	list, ok := c.v.Config.Profiles[name]
	if !ok {
		return nil, nil, c.unknownProfile(name)
	}
	res, err := c.List()
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

func (c *Channel) unknownProfile(name string) error {
	known := policy.ProfileNames(c.v.Config)
	if len(known) == 0 {
		return fmt.Errorf("profile %q: %w: %s on %s defines no profiles; add a profiles: section to it",
			name, ErrUnknownProfile, policy.ConfigFile, c.label())
	}
	return fmt.Errorf("profile %q: %w in %s on %s; known profiles: %s",
		name, ErrUnknownProfile, policy.ConfigFile, c.label(), strings.Join(known, ", "))
}
