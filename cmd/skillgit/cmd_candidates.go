package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/remotes"
)

// candidateStates are the values of --state.
var candidateStates = []string{"open", "approved", "rejected", "published", "rolled-back", "all"}

type candidatesJSON struct {
	Candidates []*lifecycle.Candidate `json:"candidates"`
}

// candidatesOptions are the flags of candidates.
type candidatesOptions struct {
	app   *app
	state string
}

func newCandidatesCmd(a *app) *cobra.Command {
	o := &candidatesOptions{app: a}
	c := &cobra.Command{
		Use:   "candidates [--state open|approved|rejected|published|rolled-back|all]",
		Short: "List candidates: proposed changes and where they stand",
		Long: `List candidates, newest first: id, skill, change, state, risk, author and when
it last changed, and, when one of them comes from a skill pack, a PACK column
(NAME@COMMIT, the commit cut to seven digits; --json has the full "pack"). --state open (the default) shows those not yet published or
rejected, approved ones included; rolled-back ones were published, then
reverted (skillgit rollback or git revert).`,
		Args: exactArgs(0),
		RunE: func(c *cobra.Command, args []string) error { return runCandidates(o) },
	}
	c.Flags().StringVar(&o.state, "state", "open", "show candidates in `STATE`: open, approved, rejected, published, rolled-back or all")
	a.addJSON(c)
	return c
}

func runCandidates(o *candidatesOptions) error {
	a, state := o.app, o.state
	if !slices.Contains(candidateStates, state) {
		return usageError{fmt.Errorf("--state %q is not one of open, approved, rejected, published, rolled-back, all", state)}
	}
	return a.withRepo(func(r *lifecycle.Repo) error {
		cs, err := r.Book().Candidates(state)
		if err != nil {
			return err
		}
		if len(cs) == 0 && !a.json {
			fmt.Fprintf(a.Err, "no %s candidates\n", state)
			if hint := fetchHint(r); hint != "" {
				fmt.Fprintln(a.Err, hint)
			}
			return nil
		}
		if r.Config().Approvals.Signed {
			return a.printResult(candidatesJSON{Candidates: cs}, func(w io.Writer) error { return printSignedCandidates(w, cs) })
		}
		return a.printResult(candidatesJSON{Candidates: cs}, func(w io.Writer) error { return printCandidates(w, cs) })
	})
}

// fetchHint says how to bring in the team's candidates when the repository has a remote: a
// fresh clone lists none until `skillgit fetch` makes them branches here.
func fetchHint(r *lifecycle.Repo) string {
	names, err := remotes.List(r)
	if err != nil || len(names) == 0 {
		return ""
	}
	n, err := remotes.CandidatesToFetch(r)
	switch {
	case err == nil && n == 1:
		return "1 candidate on the remote is not fetched yet; `skillgit fetch` brings the team's candidates"
	case err == nil && n > 1:
		return fmt.Sprintf("%d candidates on the remote are not fetched yet; `skillgit fetch` brings the team's candidates", n)
	}
	return "`skillgit fetch` brings the team's candidates from " + strings.Join(names, ", ")
}

func printCandidates(w io.Writer, cs []*lifecycle.Candidate) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	packs := anyPack(cs)
	fmt.Fprint(tw, "ID\tSKILL\tCHANGE\tSTATE\tRISK\tAUTHOR\tUPDATED")
	if packs {
		fmt.Fprint(tw, "\tPACK")
	}
	fmt.Fprintln(tw)
	for _, c := range cs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s", c.ID, skillCell(c), oneLine(string(c.Change), 10),
			c.State, oneLine(c.Risk, 10), oneLine(c.Author.String(), 60), c.Updated.Format(timeLayout))
		if packs {
			fmt.Fprintf(tw, "\t%s", orDash(shortPack(c.Pack), 120))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// skillCell is the SKILL column: the name, marked when --lenient admitted the skill and when it is a
// likely duplicate.
func skillCell(c *lifecycle.Candidate) string {
	cell := oneLine(c.Skill, 64)
	if c.Lenient != "" {
		cell += " [lenient]"
	}
	if len(c.Duplicates) > 0 {
		cell += " [duplicate?]"
	}
	return cell
}

// anyPack reports whether a candidate of the list comes from a skill pack; only then does the
// table have a PACK column.
func anyPack(cs []*lifecycle.Candidate) bool {
	for _, c := range cs {
		if c.Pack != "" {
			return true
		}
	}
	return false
}

// shortPack shows a pack's NAME@COMMIT with the commit cut to seven digits.
func shortPack(p string) string {
	name, commit, ok := strings.Cut(p, "@")
	if !ok {
		return p
	}
	return name + "@" + shortHash(commit)
}

// printSignedCandidates adds to the table how many approvals each candidate has and how
// many of them have a verified signature, for repositories where only those count.
func printSignedCandidates(w io.Writer, cs []*lifecycle.Candidate) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	packs := anyPack(cs)
	fmt.Fprint(tw, "ID\tSKILL\tCHANGE\tSTATE\tRISK\tAUTHOR\tUPDATED\tAPPROVALS")
	if packs {
		fmt.Fprint(tw, "\tPACK")
	}
	fmt.Fprintln(tw)
	for _, c := range cs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", c.ID, skillCell(c), oneLine(string(c.Change), 10),
			c.State, oneLine(c.Risk, 10), oneLine(c.Author.String(), 60), c.Updated.Format(timeLayout), verifiedCount(c))
		if packs {
			fmt.Fprintf(tw, "\t%s", orDash(shortPack(c.Pack), 120))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// verifiedCount is "N (M verified)": approvals by people, and those whose signature verified.
func verifiedCount(c *lifecycle.Candidate) string {
	people, verified := 0, 0
	for _, ap := range c.Approvals {
		if ap.Policy == "" {
			people++
		}
		if ap.Signed {
			verified++
		}
	}
	return fmt.Sprintf("%d (%d verified)", people, verified)
}

// timeLayout is how commands show a moment to people: to the minute, in the zone git recorded.
const timeLayout = "2006-01-02 15:04"
