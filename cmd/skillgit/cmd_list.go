package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/lifecycle"
)

type listJSON struct {
	Skills []listEntry `json:"skills"`
}

type listEntry struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Path        string `json:"path"`
}

func (a *app) listCommand() *cobra.Command {
	c := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the published skills",
		Long: `List the skills on the publish branch, as agents load them. A skill whose SKILL.md is
invalid is a warning on stderr; one that git cannot read (a missing or damaged object) is an
error naming the object: run git fsck.`,
		Args: exactArgs(0),
		RunE: func(c *cobra.Command, args []string) error { return a.runList() },
	}
	a.addJSON(c)
	return c
}

func (a *app) runList() error {
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
	if len(res.Skills) == 0 && !a.json {
		fmt.Fprintf(a.Err, "no skills published on %s yet; propose one with `skillgit propose PATH`\n", strings.TrimPrefix(r.Branch, "refs/heads/"))
	}
	out := listJSON{Skills: make([]listEntry, 0, len(res.Skills))}
	for _, s := range res.Skills {
		out.Skills = append(out.Skills, listEntry{Name: s.Name, Description: s.Description, Path: s.Dir})
	}
	return a.printResult(out, func(w io.Writer) error { return printList(w, res.Skills) })
}

func printList(w io.Writer, skills []*catalog.Skill) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, s := range skills {
		fmt.Fprintf(tw, "%s\t%s\n", s.Name, oneLine(s.Description, 100))
	}
	return tw.Flush()
}

// printProblems prints catalog problems on stderr, one line each.
func (a *app) printProblems(ps []catalog.Problem) {
	for _, p := range ps {
		fmt.Fprintln(a.Err, sanitize(p.String()))
	}
}
