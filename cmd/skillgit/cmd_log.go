package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
)

type logJSON struct {
	Entries []logEntry `json:"entries"`
}

type logEntry struct {
	Commit string `json:"commit"`
	Action string `json:"action"`
	Skill  string `json:"skill"`
	// Skills lists every skill of a step that changed several, such as a pack's publish.
	Skills     []string  `json:"skills,omitempty"`
	Candidate  string    `json:"candidate"`
	Who        string    `json:"who"`
	When       time.Time `json:"when"`
	Risk       string    `json:"risk"`
	ApprovedBy []string  `json:"approved_by,omitempty"`
	Via        string    `json:"via,omitempty"`
	// Unverified says why a commit that claims to be a publish or a rollback is not one.
	Unverified string `json:"unverified,omitempty"`
	// Accepted lists the findings the approvers of a publish accepted, with who and why.
	Accepted []lifecycle.AcceptedFinding `json:"accepted,omitempty"`
	// Policy says what a step changed in the repository's policy, one line per key or file.
	Policy []string `json:"policy,omitempty"`
}

// logOptions are the flags and argument of log.
type logOptions struct {
	app     *app
	args    []string
	noPager bool
}

func newLogCmd(a *app) *cobra.Command {
	o := &logOptions{app: a}
	c := &cobra.Command{
		Use:   "log [NAME]",
		Short: "Show the audit trail of the publish branch",
		Long: `Show the audit trail, newest first: each commit on the publish branch's
first-parent line with its action, skill, candidate, who made it, when, and the
risk, and under a publish the findings its approvers accepted, by whom and why.
A step that changed the policy (.skillgit.yaml, the files of .skillgit/, the allow
list) lists under it each configuration key it changed, from and to, and each
other policy file.
NAME keeps the steps that touched that skill. Publishes and rollbacks made
with plain git (a merge of a candidate, git revert) are recognized. What a
commit says of itself is checked: a commit that claims to be a publish or a
rollback and is not one is listed as a commit, with why under it.
On a terminal the text goes through a pager: SKILLGIT_PAGER, else PAGER, else
less (with LESS=FRX when LESS is unset); an empty pager, cat or --no-pager turn
it off.`,
		Args: rangeArgs(0, 1),
		RunE: func(c *cobra.Command, args []string) error {
			o.args = args
			defer a.page(false, o.noPager)()
			return runLog(o)
		},
	}
	a.addJSON(c)
	addNoPager(c, &o.noPager)
	return c
}

func runLog(o *logOptions) error {
	a, args := o.app, o.args
	name := ""
	if len(args) == 1 {
		name = args[0]
	}
	return a.withRepo(func(r *lifecycle.Repo) error {
		es, err := r.Log(name)
		if err != nil {
			return err
		}
		out := logJSON{Entries: make([]logEntry, 0, len(es))}
		for _, e := range es {
			out.Entries = append(out.Entries, logEntry{Commit: e.Commit, Action: e.Action, Skill: e.Skill, Skills: several(e.Skills), Candidate: e.Candidate,
				Who: e.Who, When: e.When, Risk: e.Risk, ApprovedBy: e.ApprovedBy, Via: e.Via, Unverified: e.Unverified, Accepted: e.Accepted, Policy: e.Policy})
		}
		return a.printResult(out, func(w io.Writer) error { return printLog(w, out.Entries) })
	})
}

// printLog writes one aligned row per entry under a header; the findings a publish accepted
// follow its row, indented, outside the alignment.
func printLog(w io.Writer, es []logEntry) error {
	var table bytes.Buffer
	tw := tabwriter.NewWriter(&table, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "COMMIT\tWHEN\tACTION\tSKILL\tCANDIDATE\tWHO\tRISK\tAPPROVED BY")
	for _, e := range es {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", shortHash(e.Commit), e.When.Format(timeLayout), orDash(e.Action, 12),
			orDash(skillColumn(e), 64), orDash(e.Candidate, 100), orDash(e.Who, 80), orDash(e.Risk, 10),
			orDash(strings.Join(e.ApprovedBy, ", "), 200))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	rows := strings.SplitAfter(table.String(), "\n")
	var b strings.Builder
	b.WriteString(rows[0])
	for i, e := range es {
		b.WriteString(rows[i+1])
		if e.Unverified != "" {
			b.WriteString("  not a publish or rollback: it " + oneLine(e.Unverified, 300) + "\n")
		}
		for _, af := range e.Accepted {
			b.WriteString("  accepted: " + acceptedLine(af) + "\n")
		}
		for _, l := range e.Policy {
			b.WriteString("  policy: " + oneLine(l, 200) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// orDash shows s on one line of at most n runes, or "-" when it is empty.
func orDash(s string, n int) string {
	if s = oneLine(s, n); s == "" {
		return "-"
	}
	return s
}

// several returns names when there are more than one, else nil.
func several(names []string) []string {
	if len(names) < 2 {
		return nil
	}
	return names
}

// skillColumn is the skill of a step, or its skills joined with commas.
func skillColumn(e logEntry) string {
	if len(e.Skills) > 1 {
		return strings.Join(e.Skills, ",")
	}
	return e.Skill
}
