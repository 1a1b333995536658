package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/catalog"
)

type listJSON struct {
	Skills []listEntry `json:"skills"`
}

type listEntry struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Path        string `json:"path"`
	// Pack is NAME@COMMIT when the published version is the one a skill pack brought.
	Pack string `json:"pack,omitempty"`
	// Scope is project or global for a skill installed for agents (in an application project).
	Scope string `json:"scope,omitempty"`
}

func newListCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the published skills",
		Long: `List the skills on the publish branch, as agents load them. A skill whose SKILL.md is
invalid is a warning on stderr; one that git cannot read (a missing or damaged object) is an
error naming the object: run git fsck.

With --json, a skill whose published version came from a skill pack carries
"pack": "NAME@COMMIT", the Skillgit-Pack of the candidate whose publish last
changed its folder; once a publish from elsewhere, a rollback or a commit made
with git changed the folder, or the pack was removed, "pack" is left out.

In an application project (a .skillgit-sync.yaml names its skill repository, and
no skill repository is around), list shows the skills installed for its agents,
as read does there, with a note on stderr; each has a "scope" (project or global)
in JSON and its folder as "path".`,
		Args: exactArgs(0),
		RunE: func(c *cobra.Command, args []string) error { return runList(a) },
	}
	a.addJSON(c)
	return c
}

func runList(a *app) error {
	r, err := a.openRepo()
	if ap, ok := errors.AsType[*appProjectError](err); ok {
		return runListInstalled(a, ap.p)
	}
	if err != nil {
		return err
	}
	defer r.Close()
	pub := r.Published()
	res, err := pub.List()
	if err != nil {
		return err
	}
	a.printProblems(res.Problems)
	if len(res.Skills) == 0 && !a.json {
		fmt.Fprintf(a.Err, "no skills published on %s yet; propose one with `skillgit propose PATH`\n", strings.TrimPrefix(r.Branch(), "refs/heads/"))
	}
	if !a.json {
		return printList(a.Out, res.Skills)
	}
	packs, err := pub.PackProvenance(folderNames(res.Skills))
	if err != nil {
		return err
	}
	out := listJSON{Skills: make([]listEntry, 0, len(res.Skills))}
	for _, s := range res.Skills {
		out.Skills = append(out.Skills, listEntry{Name: s.Name, Description: s.Description, Path: s.Dir, Pack: packs[path.Base(s.Dir)]})
	}
	return a.printResult(out, func(w io.Writer) error { return printList(w, res.Skills) })
}

// folderNames are the folder names of skills, as the publish branch's history names them.
func folderNames(skills []*catalog.Skill) []string {
	out := make([]string, len(skills))
	for i, s := range skills {
		out[i] = path.Base(s.Dir)
	}
	return out
}

// printList writes one line per skill, its name and description in columns, laid out as a
// tab writer with two spaces of padding lays them out, but in one pass: the tab writer keeps
// every cell of every line until the end, which for 10,000 skills was half of printing them.
// Names a tab writer reads as more than text (control characters, its escape byte) go through
// one.
func printList(w io.Writer, skills []*catalog.Skill) error {
	width := 0
	for _, s := range skills {
		if strings.ContainsFunc(s.Name, func(r rune) bool { return r < ' ' || r == utf8.RuneError }) {
			return printListTabbed(w, skills)
		}
		width = max(width, utf8.RuneCountInString(s.Name))
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	pad := strings.Repeat(" ", width+2)
	for _, s := range skills {
		bw.WriteString(s.Name)
		bw.WriteString(pad[utf8.RuneCountInString(s.Name):])
		bw.WriteString(oneLine(s.Description, 100))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// printListTabbed is printList through a tab writer. The columns are written through a buffer:
// the tab writer writes every cell and every run of padding on its own, which for 10,000
// skills is tens of thousands of writes to a terminal or pipe.
func printListTabbed(w io.Writer, skills []*catalog.Skill) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	tw := tabwriter.NewWriter(bw, 0, 4, 2, ' ', 0)
	var line []byte
	for _, s := range skills {
		line = append(append(line[:0], s.Name...), '\t')
		line = append(append(line, oneLine(s.Description, 100)...), '\n')
		if _, err := tw.Write(line); err != nil {
			return err
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return bw.Flush()
}

// printProblems prints catalog problems on stderr, one line each.
func (a *app) printProblems(ps []catalog.Problem) {
	for _, p := range ps {
		fmt.Fprintln(a.Err, sanitize(p.String()))
	}
}
