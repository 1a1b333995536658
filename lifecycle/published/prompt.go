package published

import (
	"fmt"
	"strings"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// How a prompt chose its skills, as PromptSelection.By reports it.
const (
	SelectAll     = "all"
	SelectProfile = "profile"
	SelectMatch   = "match"
)

// PromptOptions says which published skills a prompt lists.
type PromptOptions struct {
	// Profile, when not empty, lists the skills of that profile of .skillgit.yaml in its order.
	Profile string
	// Match lists the skills that match Task best, at most Limit of them (0: every match).
	Match bool
	Task  string
	Limit int
	// Bodies loads the SKILL.md of each selected skill; a skill whose file cannot be read is
	// dropped from the selection and reported in Failures.
	Bodies bool
}

// PromptSkill is one selected skill, and its SKILL.md when bodies were asked for.
type PromptSkill struct {
	Skill *catalog.Skill
	Body  []byte
}

// PromptFailure is a skill that was asked for but could not be loaded.
type PromptFailure struct {
	Name string
	Err  error
}

// PromptSelection is what a prompt lists and why.
type PromptSelection struct {
	// By is how the skills were chosen: SelectAll, SelectProfile or SelectMatch.
	By string
	// Discovered is how many skills are published.
	Discovered int
	// Selected names the skills chosen, in order, before any failed to load.
	Selected []string
	Skills   []PromptSkill
	Failures []PromptFailure
	// Problems are those of the published catalog (skills agents would skip, and warnings).
	Problems []catalog.Problem
	// UnknownHints are skills the task names outright (`$name`) that are not published.
	UnknownHints []string
}

// SelectPrompt chooses the published skills a prompt lists: all of them, a profile's, or the
// best matches for a task; with o.Bodies it also loads each one's SKILL.md.
func (c *Channel) SelectPrompt(o PromptOptions) (*PromptSelection, error) {
	if o.Profile != "" && o.Match {
		return nil, fmt.Errorf("choose skills by a profile or by a task, not both")
	}
	pub, err := c.List()
	if err != nil {
		return nil, err
	}
	sel := &PromptSelection{By: SelectAll, Discovered: len(pub.Skills), Problems: pub.Problems}
	skills := pub.Skills
	switch {
	case o.Profile != "":
		skills, err = c.selectProfile(sel, o.Profile)
	case o.Match:
		skills, err = c.selectMatch(sel, o.Task, o.Limit)
	}
	if err != nil {
		return nil, err
	}
	for _, s := range skills {
		sel.Selected = append(sel.Selected, s.Name)
	}
	if err := c.loadPrompt(sel, skills, o.Bodies); err != nil {
		return nil, err
	}
	return sel, nil
}

func (c *Channel) selectProfile(sel *PromptSelection, name string) ([]*catalog.Skill, error) {
	sel.By = SelectProfile
	skills, missing, err := c.resolveProfile(name)
	if err != nil {
		return nil, err
	}
	for _, n := range missing {
		sel.Failures = append(sel.Failures, PromptFailure{Name: n, Err: fmt.Errorf(
			"listed in profile %q, but %w on %s; publish it or remove it from the profile in %s",
			name, ErrNotFound, c.label(), policy.ConfigFile)})
	}
	return skills, nil
}

func (c *Channel) selectMatch(sel *PromptSelection, task string, limit int) ([]*catalog.Skill, error) {
	sel.By = SelectMatch
	res, err := c.Match(task, catalog.MatchOptions{Limit: limit})
	if err != nil {
		return nil, err
	}
	sel.UnknownHints = res.UnknownHints
	skills := make([]*catalog.Skill, len(res.Matches))
	for i, m := range res.Matches {
		skills[i] = m.Skill
	}
	return skills, nil
}

// loadPrompt fills sel.Skills, reading each SKILL.md when bodies are wanted. A SKILL.md that
// is too large is a failure of its skill alone; one that git cannot read fails the prompt.
func (c *Channel) loadPrompt(sel *PromptSelection, skills []*catalog.Skill, bodies bool) error {
	for _, s := range skills {
		ps := PromptSkill{Skill: s}
		if bodies {
			data, err := c.Content(s)
			if gitstore.IsObjectError(err) {
				return err
			}
			if err != nil {
				sel.Failures = append(sel.Failures, PromptFailure{Name: s.Name, Err: err})
				continue
			}
			ps.Body = data
		}
		sel.Skills = append(sel.Skills, ps)
	}
	return nil
}

// Reason says why the skill could not be loaded, without its name in front.
func (f PromptFailure) Reason() string {
	return strings.TrimPrefix(f.Err.Error(), f.Name+": ")
}
