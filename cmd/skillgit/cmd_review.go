package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/lifecycle"
)

// reviewJSON is the output of `skillgit review --json`.
type reviewJSON struct {
	Candidate *lifecycle.Candidate `json:"candidate"`
	Required  int                  `json:"approvals_required"`
	Files     []reviewFile         `json:"files"`
	Diff      string               `json:"diff"`
	Risk      audit.Risk           `json:"risk"`
	Verdict   string               `json:"verdict"`
	Scope     *lifecycle.Scope     `json:"scope"`
	Conflicts []string             `json:"conflicts,omitempty"`
	Policy    []string             `json:"policy,omitempty"`
	FailOn    audit.Risk           `json:"fail_on"`
	Audit     json.RawMessage      `json:"audit"`
}

// reviewPartJSON is the output of `skillgit review --json` with --stat or --findings: the
// verdict, and the files with their line counts or the audit, or both.
type reviewPartJSON struct {
	Candidate string          `json:"candidate"`
	Skill     string          `json:"skill"`
	Risk      audit.Risk      `json:"risk"`
	Verdict   string          `json:"verdict"`
	FailOn    audit.Risk      `json:"fail_on"`
	Files     []reviewFile    `json:"files,omitempty"`
	Added     *int            `json:"added,omitempty"`
	Removed   *int            `json:"removed,omitempty"`
	Audit     json.RawMessage `json:"audit,omitempty"`
}

// reviewOptions are the flags and argument of `skillgit review`.
type reviewOptions struct {
	app    *app
	id     string
	format string
	// stat shows the files with their line counts instead of the diff; findings shows the
	// audit alone. Both together show both, still without the diff.
	stat, findings bool
	noPager        bool
}

// partial reports whether only parts of the review were asked for.
func (o *reviewOptions) partial() bool { return o.stat || o.findings }

func newReviewCmd(a *app) *cobra.Command {
	o := &reviewOptions{app: a}
	c := &cobra.Command{
		Use:   "review ID [--stat] [--findings] [--no-pager] [--format text|markdown|json|sarif]",
		Short: "Show a candidate for review: state, diff, audit and history",
		Long: `Show what a reviewer needs to decide on candidate ID, in this order: its state,
risk and approvals, the findings and summary of a fresh audit (under the publish
branch's policy), its history, then the files it changes and their diff against
the publish branch, the longest part, last.
--stat lists the files with the lines each adds and removes instead of the diff;
--findings shows the audit's findings alone; together they show both. A large
candidate, such as a skill from a pack, is easier to read that way first.
--format markdown is a pull-request comment: the verdict, the findings, then the
diff folded, all within GitHub's 65,536-character limit (what is cut says so).
--json is --format json; --format sarif is the audit alone, for code scanning,
with the findings the approvals accepted as suppressions that say who accepted
them and why. On a terminal the text goes through a pager: SKILLGIT_PAGER, else
PAGER, else less (with LESS=FRX when LESS is unset); an empty pager, cat or
--no-pager turn it off. Exits 0 whatever the verdict; 'skillgit audit' is the
gate for CI.

ID may be the name of a skill with exactly one open candidate (an id always
wins). A candidate from a skill pack shows pack: NAME@COMMIT in the head (a
"- pack:" line in markdown, "pack" in JSON).`,
		Args: exactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.id = args[0]
			return runReview(o)
		},
	}
	c.Flags().StringVar(&o.format, "format", "text", "output `FORMAT`: text, markdown, json or sarif")
	c.Flags().BoolVar(&o.stat, "stat", false, "list the files with lines added and removed, without the diff")
	c.Flags().BoolVar(&o.findings, "findings", false, "show the audit's findings only, without the diff")
	a.addJSON(c)
	addNoPager(c, &o.noPager)
	return c
}

func runReview(o *reviewOptions) error {
	a, id := o.app, o.id
	f, err := o.outputFormat()
	if err != nil {
		return err
	}
	if o.partial() && f != audit.FormatText && f != audit.FormatJSON {
		return usageError{fmt.Errorf("--stat and --findings print text or JSON, not --format %s", o.format)}
	}
	color := colorful(a.Out)
	defer a.page(f == audit.FormatJSON || f == audit.FormatSARIF, o.noPager)()
	return a.withRepo(func(r *lifecycle.Repo) error {
		rv, err := r.Review(id)
		if err != nil {
			return err
		}
		opts := audit.WriteOptions{Version: a.version, FailOn: rv.FailOn, Title: "candidate " + rv.Candidate.ID}
		required := r.Config().Approvals.Required
		switch {
		case f == audit.FormatJSON && o.partial():
			return o.writePartJSON(rv, opts)
		case f == audit.FormatJSON:
			return o.writeFullJSON(rv, required, opts)
		case f == audit.FormatMarkdown:
			return writeReviewMarkdown(a.Out, rv, required, opts)
		case f == audit.FormatSARIF:
			return audit.WriteSARIF(a.Out, rv.Reports, opts)
		}
		opts.Color = color
		if o.partial() {
			return writeReviewPart(a.Out, rv, required, o, opts)
		}
		return writeReviewText(a.Out, rv, required, opts)
	})
}

// outputFormat returns the output format; --json is --format json.
func (o *reviewOptions) outputFormat() (audit.Format, error) {
	a, format := o.app, o.format
	f, err := audit.ParseFormat(format)
	if err != nil {
		return 0, usageError{fmt.Errorf("--format %q: use text, markdown, json or sarif", format)}
	}
	if a.json {
		if format != "text" && f != audit.FormatJSON {
			return 0, usageError{fmt.Errorf("--json and --format %s ask for two formats; pass one", format)}
		}
		return audit.FormatJSON, nil
	}
	return f, nil
}

func (o *reviewOptions) writeFullJSON(rv *lifecycle.Review, required int, opts audit.WriteOptions) error {
	a := o.app
	var rep bytes.Buffer
	if err := audit.WriteJSON(&rep, rv.Reports, opts); err != nil {
		return err
	}
	out := reviewJSON{Candidate: rv.Candidate, Required: required, Files: reviewFiles(rv), Diff: rv.Diff, Risk: rv.Risk,
		Verdict: verdictKey(rv.Verdict), Scope: rv.Scope, Conflicts: rv.Conflicts, Policy: rv.Policy, FailOn: rv.FailOn,
		Audit: json.RawMessage(rep.Bytes())}
	return writeJSON(a.Out, out)
}

func (o *reviewOptions) writePartJSON(rv *lifecycle.Review, opts audit.WriteOptions) error {
	a := o.app
	out := reviewPartJSON{Candidate: rv.Candidate.ID, Skill: rv.Candidate.Skill, Risk: rv.Risk,
		Verdict: verdictKey(rv.Verdict), FailOn: rv.FailOn}
	if o.stat {
		out.Files = reviewFiles(rv)
		added, removed := diffTotals(out.Files)
		out.Added, out.Removed = &added, &removed
	}
	if o.findings {
		var rep bytes.Buffer
		if err := audit.WriteJSON(&rep, rv.Reports, opts); err != nil {
			return err
		}
		out.Audit = json.RawMessage(rep.Bytes())
	}
	return writeJSON(a.Out, out)
}

// verdictKey is a verdict as the audit's JSON spells it, such as "needs_review".
func verdictKey(v audit.Verdict) string {
	return strings.ReplaceAll(strings.ToLower(v.String()), " ", "_")
}

// writeReviewText writes a review with what decides it first: the head, the audit's findings
// and summary, and the history, then the files and their diff, which may run to thousands of
// lines; on a terminal the pager opens on the first part.
func writeReviewText(w io.Writer, rv *lifecycle.Review, required int, opts audit.WriteOptions) error {
	writeReviewHead(w, rv, required)
	fmt.Fprintln(w)
	if err := audit.Write(w, audit.FormatText, rv.Reports, opts); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nhistory:\n")
	for _, e := range rv.Candidate.History {
		fmt.Fprintf(w, "  %s  %s  %-8s %s  %s\n", shortHash(e.Commit), e.When.Format(timeLayout), oneLine(e.Action, 10),
			oneLine(e.Who.String(), 60), oneLine(e.Subject, 100))
	}
	fmt.Fprintf(w, "\nfiles:\n")
	for _, f := range rv.Files {
		fmt.Fprintf(w, "  %-9s %s\n", f.Status, sanitize(f.Path))
	}
	if rv.Diff != "" {
		fmt.Fprintf(w, "\n%s", sanitize(rv.Diff))
	}
	return nil
}

// writeReviewPart writes the head of a review and the parts asked for, never the diff.
func writeReviewPart(w io.Writer, rv *lifecycle.Review, required int, o *reviewOptions, opts audit.WriteOptions) error {
	writeReviewHead(w, rv, required)
	if o.stat {
		fmt.Fprintf(w, "\nfiles:\n")
		writeStat(w, reviewFiles(rv))
	}
	if o.findings {
		fmt.Fprintln(w)
		if err := audit.Write(w, audit.FormatText, rv.Reports, opts); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "\n`skillgit review %s` shows the diff too.\n", rv.Candidate.ID)
	return err
}

// writeReviewHead writes what a review shows first: the candidate, its state, risk and
// approvals, and what it changes out of scope or in conflict.
func writeReviewHead(w io.Writer, rv *lifecycle.Review, required int) {
	c := rv.Candidate
	fmt.Fprintf(w, "candidate:  %s (%s)\n", c.ID, where(c))
	if c.Change == lifecycle.ChangePolicy {
		writePolicyHead(w, rv)
	} else {
		fmt.Fprintf(w, "skill:      %s (%s), %s\n", oneLine(c.Skill, 100), oneLine(c.Path, 200), oneLine(string(c.Change), 10))
		if c.Pack != "" {
			fmt.Fprintf(w, "pack:       %s\n", oneLine(c.Pack, 200))
		}
		for _, l := range duplicateLines(c) {
			fmt.Fprintf(w, "dedupe:     %s\n", l)
		}
		fmt.Fprintf(w, "state:      %s\n", c.State)
		fmt.Fprintf(w, "risk:       %s, %s (fail_on %s)\n", rv.Risk, rv.Verdict, rv.FailOn)
	}
	fmt.Fprintf(w, "author:     %s%s\n", oneLine(c.Author.String(), 200), authorNote(c))
	if c.Unverified != "" {
		fmt.Fprintf(w, "content:    %s\n", oneLine(unverifiedLine(c), 400))
	}
	fmt.Fprintf(w, "approvals:  %d of %d\n", len(c.Approvals), required)
	for _, ap := range c.Approvals {
		fmt.Fprintf(w, "  %s\n", approvalLine(ap))
		for _, af := range ap.Accepted {
			fmt.Fprintf(w, "    accepted: %s\n", acceptedLine(af))
		}
	}
	writeScopeText(w, rv)
}

// writeScopeText warns, before anything else is read, about changes the candidate's branch
// makes outside its scope and folders in conflict with the publish branch.
func writeScopeText(w io.Writer, rv *lifecycle.Review) {
	if !rv.Scope.InScope() {
		fmt.Fprintf(w, "\nOUT OF SCOPE: the branch changes paths beyond %s; approve and publish refuse it:\n",
			sanitize(strings.Join(rv.Scope.Declared, ", ")))
		for _, p := range rv.Scope.Outside {
			fmt.Fprintf(w, "  ! %s\n", sanitize(p))
		}
		fmt.Fprintf(w, "Remove them from the branch, or reject it and propose each skill separately.\n")
	}
	for _, p := range rv.Conflicts {
		fmt.Fprintf(w, "\nconflict: the publish branch changed %s too; `skillgit rebase %s` brings the candidate up to date\n",
			sanitize(p), rv.Candidate.ID)
	}
}

// where says which ref holds a candidate, or which commit published it.
func where(c *lifecycle.Candidate) string {
	if c.Ref == "" && c.PublishedBy != "" {
		return "published by " + shortHash(c.PublishedBy)
	}
	return strings.TrimPrefix(c.Ref, "refs/heads/")
}

func approvalLine(ap lifecycle.Approval) string {
	who := ap.Who.String()
	if ap.Policy != "" {
		who = "policy " + ap.Policy + " (for " + who + ")"
	}
	line := who + ", " + ap.When.Format(timeLayout) + signatureNote(ap)
	if ap.Note != "" {
		line += ": " + ap.Note
	}
	return oneLine(line, 300)
}

// signatureNote says whether an approval's signature verified, when that was checked.
func signatureNote(ap lifecycle.Approval) string {
	switch {
	case ap.Signed:
		return ", signature verified for " + ap.Signer
	case ap.Unverified != "":
		return ", signature not verified (" + ap.Unverified + ")"
	}
	return ""
}

// authorNote says whether the proposal's signature verified, when approvals must be signed.
func authorNote(c *lifecycle.Candidate) string {
	switch {
	case c.AuthorVerified == nil:
		return ""
	case *c.AuthorVerified:
		return ", signature verified"
	}
	return ", signature not verified"
}

// unverifiedLine says which commit leaves a candidate's content without a verified writer.
func unverifiedLine(c *lifecycle.Candidate) string {
	return "not verified: " + c.Unverified + "; no approval counts until a revision signed with a key the allowed-signers file lists for its author replaces it"
}

// acceptedLine shows an accepted finding: "FP RULE in PATH", then who and why when known.
func acceptedLine(af lifecycle.AcceptedFinding) string {
	line := af.Fingerprint
	if af.Rule != "" {
		line += " " + af.Rule
	}
	if af.Path != "" {
		line += " in " + af.Path
	}
	if af.By != "" {
		line += ", by " + af.By
	}
	if af.Reason != "" {
		line += ": " + af.Reason
	}
	return oneLine(line, 300)
}

// writePolicyHead writes what a policy candidate changes, where a skill candidate's review
// names its skill and risk.
func writePolicyHead(w io.Writer, rv *lifecycle.Review) {
	c := rv.Candidate
	fmt.Fprintf(w, "policy:     %s\n", oneLine(strings.Join(rv.Scope.Declared, ", "), 200))
	for _, l := range rv.Policy {
		fmt.Fprintf(w, "  %s\n", oneLine(l, 200))
	}
	fmt.Fprintf(w, "state:      %s\n", c.State)
	fmt.Fprintf(w, "risk:       a policy change; it always needs approvals by people other than its author (%s)\n", rv.Verdict)
}
