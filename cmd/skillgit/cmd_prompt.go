package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/lifecycle"
)

type promptJSON struct {
	Skills []promptEntry `json:"skills"`
}

type promptEntry struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Location    string `json:"location"`
}

func (a *app) promptCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "prompt",
		Short: "Print the <available_skills> block for an agent's system prompt",
		Args:  exactArgs(0),
		RunE:  func(c *cobra.Command, args []string) error { return a.runPrompt() },
	}
	a.addJSON(c)
	return c
}

func (a *app) runPrompt() error {
	r, err := lifecycle.Open(a.repo)
	if err != nil {
		return err
	}
	defer r.Close()
	res, err := r.Published()
	if err != nil {
		return err
	}
	a.printProblems(res.Problems)
	entries := make([]catalog.PromptEntry, 0, len(res.Skills))
	out := promptJSON{Skills: []promptEntry{}}
	for _, s := range res.Skills {
		e := catalog.PromptEntry{Name: s.Name, Description: s.Description, Location: r.Location(s)}
		entries = append(entries, e)
		out.Skills = append(out.Skills, promptEntry(e))
	}
	return a.printResult(out, func(w io.Writer) error { return catalog.WritePrompt(w, entries) })
}
