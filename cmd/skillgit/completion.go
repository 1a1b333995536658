package main

import (
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/agentsync"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// argCompletion says how the positional arguments of one command complete.
type argCompletion struct {
	// values lists the choices for an argument; those already given are left out.
	values func(a *app) []cobra.Completion
	// max is how many arguments take values; 0 means any number.
	max int
	// onlyWith names a flag without which the arguments are paths, completed by the shell.
	onlyWith string
	// filesAfter lets the shell complete paths for the arguments after max.
	filesAfter bool
}

// argCompletions is keyed by command path.
var argCompletions = map[string]argCompletion{
	"skillgit approve":     {values: openCandidates},
	"skillgit reject":      {values: openCandidates, max: 1},
	"skillgit publish":     {values: openCandidates},
	"skillgit review":      {values: openCandidates, max: 1},
	"skillgit rebase":      {values: openCandidates, max: 1},
	"skillgit revise":      {values: openCandidates, max: 1, filesAfter: true},
	"skillgit push":        {values: openCandidates},
	"skillgit read":        {values: publishedSkills},
	"skillgit show":        {values: publishedSkills, max: 1},
	"skillgit rollback":    {values: publishedSkills, max: 1},
	"skillgit log":         {values: publishedSkills, max: 1},
	"skillgit propose":     {values: publishedSkills, max: 1, onlyWith: "delete"},
	"skillgit mode":        {values: modeChoices, max: 1},
	"skillgit pack update": {values: packNames, max: 1},
	"skillgit pack remove": {values: packNames, max: 1},
}

// flagCompletions is keyed by command path, then by flag name.
var flagCompletions = map[string]map[string]func(a *app) []cobra.Completion{
	"skillgit sync":       {"target": agentIDs, "channel": fixed("main", "canary")},
	"skillgit publish":    {"channel": fixed("main", "canary"), "pack": packNames},
	"skillgit approve":    {"pack": packNames},
	"skillgit review":     {"format": fixed("text", "markdown", "json", "sarif")},
	"skillgit audit":      {"format": fixed("text", "json", "sarif", "markdown"), "fail-on": fixed("low", "medium", "high")},
	"skillgit candidates": {"state": fixed(candidateStates...)},
	"skillgit prompt":     {"profile": profileNames},
	"skillgit match":      {"hint": publishedSkills},
}

// registerCompletions walks the command tree and attaches the completions of the tables.
// Completion reads the repository that -C names and never writes to it: no cache is filled,
// no ref moves. Whatever fails yields no completions, so that a shell shows nothing rather
// than an error.
func (a *app) registerCompletions(c *cobra.Command) {
	if !c.HasParent() {
		_ = c.RegisterFlagCompletionFunc("repo", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return nil, cobra.ShellCompDirectiveFilterDirs
		})
	}
	if spec, ok := argCompletions[c.CommandPath()]; ok {
		c.ValidArgsFunction = a.completeArgs(spec)
	}
	for name, values := range flagCompletions[c.CommandPath()] {
		if c.Flags().Lookup(name) != nil {
			_ = c.RegisterFlagCompletionFunc(name, a.completeFlag(values))
		}
	}
	for _, sub := range c.Commands() {
		a.registerCompletions(sub)
	}
}

func (a *app) completeArgs(spec argCompletion) cobra.CompletionFunc {
	return func(c *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if spec.onlyWith != "" && !c.Flags().Changed(spec.onlyWith) {
			return nil, cobra.ShellCompDirectiveDefault
		}
		if spec.max > 0 && len(args) >= spec.max {
			if spec.filesAfter {
				return nil, cobra.ShellCompDirectiveDefault
			}
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return matching(spec.values(a), prefix, args), cobra.ShellCompDirectiveNoFileComp
	}
}

func (a *app) completeFlag(values func(a *app) []cobra.Completion) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return matching(values(a), prefix, nil), cobra.ShellCompDirectiveNoFileComp
	}
}

// matching keeps the choices that start with prefix and are not among given.
func matching(choices []cobra.Completion, prefix string, given []string) []cobra.Completion {
	var out []cobra.Completion
	for _, ch := range choices {
		value, _, _ := strings.Cut(ch, "\t")
		if strings.HasPrefix(value, prefix) && !slices.Contains(given, value) {
			out = append(out, ch)
		}
	}
	return out
}

func fixed(values ...string) func(*app) []cobra.Completion {
	return func(*app) []cobra.Completion { return values }
}

// withRepoValues opens the repository read-only for a completion; an error yields nothing.
func (a *app) withRepoValues(fn func(r *lifecycle.Repo) ([]cobra.Completion, error)) []cobra.Completion {
	r, err := lifecycle.Open(a.repo)
	if err != nil {
		return nil
	}
	defer r.Close()
	r.ReadOnly()
	out, err := fn(r)
	if err != nil {
		return nil
	}
	return out
}

// openCandidates lists the ids of the candidates not yet published or rejected.
func openCandidates(a *app) []cobra.Completion {
	return a.withRepoValues(func(r *lifecycle.Repo) ([]cobra.Completion, error) {
		cs, err := r.Book().Candidates("open")
		var out []cobra.Completion
		for _, c := range cs {
			out = append(out, cobra.CompletionWithDesc(c.ID, oneLine(c.Skill, 40)+", "+string(c.Change)+", "+string(c.State)))
		}
		return out, err
	})
}

// publishedSkills lists the skills of the publish branch. It reads them afresh rather than
// through the listing cache, which it would otherwise fill.
func publishedSkills(a *app) []cobra.Completion {
	return a.withRepoValues(func(r *lifecycle.Repo) ([]cobra.Completion, error) {
		res, err := catalog.Discover(r.Git().Objects().TreeFS(r.Tree()), r.Config().SkillsDir,
			catalog.Options{Mode: catalog.Lenient, FrontmatterOnly: true})
		if err != nil {
			return nil, err
		}
		var out []cobra.Completion
		for _, s := range res.Skills {
			out = append(out, cobra.CompletionWithDesc(s.Name, oneLine(s.Description, 60)))
		}
		return out, nil
	})
}

func packNames(a *app) []cobra.Completion {
	return a.withRepoValues(func(r *lifecycle.Repo) ([]cobra.Completion, error) {
		var out []cobra.Completion
		for _, p := range r.Config().Packs {
			out = append(out, cobra.CompletionWithDesc(p.Name, oneLine(p.URL, 60)))
		}
		return out, nil
	})
}

func profileNames(a *app) []cobra.Completion {
	return a.withRepoValues(func(r *lifecycle.Repo) ([]cobra.Completion, error) {
		out := make([]cobra.Completion, 0, len(r.Config().Profiles))
		for name := range r.Config().Profiles {
			out = append(out, name)
		}
		sort.Strings(out)
		return out, nil
	})
}

// agentIDs lists the agent table, with the repository's overrides when there is one.
func agentIDs(a *app) []cobra.Completion {
	table, err := agentsync.Agents(a.repo)
	if err != nil {
		return nil
	}
	out := make([]cobra.Completion, 0, len(table))
	for _, ag := range table {
		out = append(out, cobra.CompletionWithDesc(ag.ID, oneLine(ag.Name, 40)))
	}
	return out
}

func modeChoices(*app) []cobra.Completion {
	return []cobra.Completion{
		cobra.CompletionWithDesc(string(policy.ModeManual), "every publish needs a person's approval"),
		cobra.CompletionWithDesc(string(policy.ModeAssisted), "low-risk patches are approved by policy"),
		cobra.CompletionWithDesc(string(policy.ModeAutonomous), "low-risk patches are published at once"),
	}
}
