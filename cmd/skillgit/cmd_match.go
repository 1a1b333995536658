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

// defaultMatchLimit is how many skills match and prompt --match list unless told.
const defaultMatchLimit = 5

type matchOptions struct {
	app       *app
	task      string
	limit     int
	hints     []string
	installed installedFlags
	planFlags
}

type matchJSON struct {
	Matches      []matchEntry   `json:"matches"`
	UnknownHints []string       `json:"unknown_hints"`
	Shadowed     []shadowedJSON `json:"shadowed,omitempty"`
	*planInfo
}

type matchEntry struct {
	Name   string  `json:"name"`
	Score  float64 `json:"score"`
	Reason string  `json:"reason"`
	Scope  string  `json:"scope,omitempty"`
}

func newMatchCmd(a *app) *cobra.Command {
	o := &matchOptions{app: a}
	c := &cobra.Command{
		Use:   "match TASK...",
		Short: "Rank the published skills for a task",
		Long: `Rank the skills on the publish branch for a task, best first, and say why each
was chosen. The words of TASK (several arguments are joined with spaces) are
matched against each skill's name and description. Skills named outright come
first, in the order given: those of --hint, then those the task names as $NAME
or "skill: NAME". A hint that names no published skill is a warning, not an error.

--limit N lists at most N skills (default 5); --limit 0 lists every skill that
matches. No match is not an error: the list is empty and the exit status 0.
` + installedHelp + planHelp,
		Args: o.planArgs(minArgs(1)),
		RunE: func(c *cobra.Command, args []string) error {
			o.task = strings.Join(args, " ")
			return runMatch(o)
		},
	}
	c.Flags().IntVar(&o.limit, "limit", defaultMatchLimit, "list at most `N` skills; 0 lists every match")
	c.Flags().StringArrayVar(&o.hints, "hint", nil, "rank skill `NAME` first (repeatable)")
	addInstalledFlags(c, &o.installed)
	o.addPlanFlags(c)
	a.addJSON(c)
	return c
}

func runMatch(o *matchOptions) error {
	a := o.app
	if o.limit < 0 {
		return usageError{fmt.Errorf("--limit is %d; it must be 0 (every match) or more", o.limit)}
	}
	if o.installed.set() {
		return runMatchInstalled(o)
	}
	r, err := lifecycle.Open(a.repo)
	if noSkillRepository(err) {
		return runMatchInstalled(o)
	}
	if err != nil {
		return err
	}
	defer r.Close()
	pi, err := o.resolvePlan(a.path, r.Config(), &o.task, &o.limit)
	if err != nil {
		return err
	}
	res, err := r.Published().Match(o.task, catalog.MatchOptions{Limit: o.limit, Hints: o.hints})
	if err != nil {
		return err
	}
	pi.clear(res)
	a.notePlan(pi)
	o.warnUnknownHints(res.UnknownHints)
	out := toMatchJSON(res)
	out.planInfo = pi
	if len(out.Matches) == 0 && !a.json && pi.open() {
		fmt.Fprintln(a.Err, "no published skill matches the task")
	}
	return a.printResult(out, func(w io.Writer) error { return printMatches(w, out.Matches) })
}

// warnUnknownHints warns about each hinted name that no published skill has.
func (o *matchOptions) warnUnknownHints(hints []string) {
	a := o.app
	for _, h := range hints {
		a.warn("hint %q: no published skill has that name", sanitize(h))
	}
}

func toMatchJSON(res *catalog.MatchResult) matchJSON {
	out := matchJSON{Matches: make([]matchEntry, 0, len(res.Matches)), UnknownHints: []string{}}
	for _, m := range res.Matches {
		out.Matches = append(out.Matches, matchEntry{Name: m.Skill.Name, Score: m.Score, Reason: m.Reason})
	}
	out.UnknownHints = append(out.UnknownHints, res.UnknownHints...)
	return out
}

func printMatches(w io.Writer, matches []matchEntry) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for i, m := range matches {
		fmt.Fprintf(tw, "%d\t%s\t%.2f\t%s\n", i+1, oneLine(m.Name, 64), m.Score, oneLine(m.Reason, 200))
	}
	return tw.Flush()
}
