package agentsync

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skillgit/skillgit/lifecycle/policy"
	"github.com/skillgit/skillgit/targetdir"
)

// selection is the names of the skills the sync file selects, by profile or by name, and
// how it selects them, for messages; nil names when it selects every skill.
func (r *repo) selection() ([]string, string, error) {
	if r.sync == nil {
		return nil, "", nil
	}
	if r.sync.Profile == "" {
		return r.sync.Skills, "skills", nil
	}
	list, ok := r.Config().Profiles[r.sync.Profile]
	if !ok {
		return nil, "", fmt.Errorf("%s: profile: %q is not a profile of the skill repository %s (profiles: %s); correct the file or add the profile to %s there",
			r.syncPath, r.sync.Profile, repoLabel(r), orNone(policy.ProfileNames(r.Config())), policy.ConfigFile)
	}
	return list, fmt.Sprintf("profile %q", r.sync.Profile), nil
}

// selectSkills keeps, of the channel's skills, those the sync file selects by profile or by
// name; the skills it drops are pruned from the targets like unpublished ones. A name that
// is not published on the channel is an error naming it.
func (r *repo) selectSkills(src *source) error {
	names, what, err := r.selection()
	if err != nil || names == nil {
		return err
	}
	var kept []targetdir.Skill
	for _, n := range names {
		i := slices.IndexFunc(src.skills, func(s targetdir.Skill) bool { return s.Name == n })
		if i < 0 {
			return fmt.Errorf("%s: %s: skill %q is not published on %s in %s; nothing was installed. Publish it, or take it out of the list",
				r.syncPath, what, n, src.channel, repoLabel(r))
		}
		if !slices.ContainsFunc(kept, func(s targetdir.Skill) bool { return s.Name == n }) {
			kept = append(kept, src.skills[i])
		}
	}
	src.skills = kept
	return nil
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
