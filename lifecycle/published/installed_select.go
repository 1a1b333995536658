package published

import (
	"fmt"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// Match ranks the installed skills for a task exactly as Channel.Match ranks published ones. The
// index is built on the first call.
func (in *Installed) Match(task string, o catalog.MatchOptions) *catalog.MatchResult {
	if in.matcher == nil {
		skills := make([]*catalog.Skill, len(in.Skills))
		for i, is := range in.Skills {
			skills[i] = is.Skill
		}
		in.matcher = catalog.NewMatcher(skills)
	}
	return in.matcher.Match(task, o)
}

// SelectPrompt chooses the installed skills a prompt lists: all of them, or the best matches
// for a task; with o.Bodies it also loads each one's SKILL.md. Profiles belong to a skillgit
// repository, so o.Profile is an error here.
func (in *Installed) SelectPrompt(o PromptOptions) (*PromptSelection, error) {
	if o.Profile != "" {
		return nil, fmt.Errorf("profile %q: profiles are defined in a skillgit repository's %s; installed skills have none", o.Profile, policy.ConfigFile)
	}
	sel := &PromptSelection{By: SelectAll, Discovered: len(in.Skills), Problems: in.Problems}
	sel.Failures = append(sel.Failures, in.Failures...)
	skills := in.Skills
	if o.Match {
		sel.By = SelectMatch
		res := in.Match(o.Task, catalog.MatchOptions{Limit: o.Limit})
		sel.UnknownHints = res.UnknownHints
		skills = make([]*InstalledSkill, len(res.Matches))
		for i, m := range res.Matches {
			skills[i] = in.Of(m.Skill)
		}
	}
	for _, is := range skills {
		sel.Selected = append(sel.Selected, is.Skill.Name)
		ps := PromptSkill{Skill: is.Skill}
		if o.Bodies {
			data, err := is.Content()
			if err != nil {
				sel.Failures = append(sel.Failures, PromptFailure{Name: is.Skill.Name, Err: err})
				continue
			}
			ps.Body = data
		}
		sel.Skills = append(sel.Skills, ps)
	}
	return sel, nil
}
