package policy

import (
	"fmt"
	"sort"

	"github.com/skillgit/skillgit/catalog"
)

// ProfileProblem is a profile entry that names no published skill.
type ProfileProblem struct {
	Profile string
	Skill   string
}

// Message says what is wrong and what to do, for the publish branch or channel named branch.
func (p ProfileProblem) Message(branch string) string {
	return fmt.Sprintf("profile %q: skill %q is not published on %s; publish it or remove it from the profile",
		p.Profile, p.Skill, branch)
}

// ProfileNames returns the names of the profiles cfg defines, sorted.
func ProfileNames(cfg *Config) []string {
	names := make([]string, 0, len(cfg.Profiles))
	for n := range cfg.Profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// CheckProfiles reports every entry of cfg's profiles that names none of the published
// skills, by profile name and then in list order.
func CheckProfiles(cfg *Config, published []*catalog.Skill) []ProfileProblem {
	have := map[string]bool{}
	for _, s := range published {
		have[s.Name] = true
	}
	var out []ProfileProblem
	for _, p := range ProfileNames(cfg) {
		for _, name := range cfg.Profiles[p] {
			if !have[name] {
				out = append(out, ProfileProblem{Profile: p, Skill: name})
			}
		}
	}
	return out
}
