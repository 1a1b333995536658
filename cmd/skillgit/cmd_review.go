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
	Candidate *lifecycle.Candidate   `json:"candidate"`
	Required  int                    `json:"approvals_required"`
	Files     []lifecycle.FileChange `json:"files"`
	Diff      string                 `json:"diff"`
	Risk      audit.Risk             `json:"risk"`
	Verdict   string                 `json:"verdict"`
	Scope     *lifecycle.Scope       `json:"scope"`
	Conflicts []string               `json:"conflicts,omitempty"`
	Policy    []string               `json:"policy,omitempty"`
	FailOn    audit.Risk             `json:"fail_on"`
	Audit     json.RawMessage        `json:"audit"`
}

func (a *app) reviewCommand() *cobra.Command {
	var format string
	c := &cobra.Command{
		Use:   "review ID [--format text|markdown|json|sarif]",
		Short: "Show a candidate for review: state, diff, audit and history",
		Long: `Show what a reviewer needs to decide on candidate ID: its state, risk and
approvals, the files it changes and their diff against the publish branch, the
findings of a fresh audit (under the publish branch's policy) and its history.
--format markdown is a pull-request comment, verdict first; --json is --format
json; --format sarif is the audit alone, for code scanning, with the findings the
approvals accepted as suppressions that say who accepted them and why. Exits 0
whatever the verdict; 'skillgit audit' is the gate for CI.`,
		Args: exactArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return a.runReview(args[0], format) },
	}
	c.Flags().StringVar(&format, "format", "text", "output `FORMAT`: text, markdown, json or sarif")
	a.addJSON(c)
	return c
}

func (a *app) runReview(id, format string) error {
	f, err := a.reviewFormat(format)
	if err != nil {
		return err
	}
	return a.withRepo(func(r *lifecycle.Repo) error {
		rv, err := r.Review(id)
		if err != nil {
			return err
		}
		opts := audit.WriteOptions{Version: a.version, FailOn: rv.FailOn, Title: "candidate " + rv.Candidate.ID}
		required := r.Config.Approvals.Required
		switch f {
		case audit.FormatJSON:
			return a.writeReviewJSON(rv, required, opts)
		case audit.FormatMarkdown:
			return writeReviewMarkdown(a.Out, rv, required, opts)
		case audit.FormatSARIF:
			return audit.WriteSARIF(a.Out, rv.Reports, opts)
		}
		opts.Color = colorful(a.Out)
		return writeReviewText(a.Out, rv, required, opts)
	})
}

// reviewFormat returns the output format; --json is --format json.
func (a *app) reviewFormat(format string) (audit.Format, error) {
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

func (a *app) writeReviewJSON(rv *lifecycle.Review, required int, opts audit.WriteOptions) error {
	var rep bytes.Buffer
	if err := audit.WriteJSON(&rep, rv.Reports, opts); err != nil {
		return err
	}
	out := reviewJSON{Candidate: rv.Candidate, Required: required, Files: rv.Files, Diff: rv.Diff, Risk: rv.Risk,
		Verdict: verdictKey(rv.Verdict), Scope: rv.Scope, Conflicts: rv.Conflicts, Policy: rv.Policy, FailOn: rv.FailOn,
		Audit: json.RawMessage(rep.Bytes())}
	if out.Files == nil {
		out.Files = []lifecycle.FileChange{}
	}
	return writeJSON(a.Out, out)
}

// verdictKey is a verdict as the audit's JSON spells it, such as "needs_review".
func verdictKey(v audit.Verdict) string {
	return strings.ReplaceAll(strings.ToLower(v.String()), " ", "_")
}

func writeReviewText(w io.Writer, rv *lifecycle.Review, required int, opts audit.WriteOptions) error {
	c := rv.Candidate
	fmt.Fprintf(w, "candidate:  %s (%s)\n", c.ID, where(c))
	if c.Change == lifecycle.ChangePolicy {
		writePolicyHead(w, rv)
	} else {
		fmt.Fprintf(w, "skill:      %s (%s), %s\n", oneLine(c.Skill, 100), oneLine(c.Path, 200), oneLine(string(c.Change), 10))
		fmt.Fprintf(w, "state:      %s\n", c.State)
		fmt.Fprintf(w, "risk:       %s, %s (fail_on %s)\n", rv.Risk, rv.Verdict, rv.FailOn)
	}
	fmt.Fprintf(w, "author:     %s\n", oneLine(c.Author.String(), 200))
	fmt.Fprintf(w, "approvals:  %d of %d\n", len(c.Approvals), required)
	for _, ap := range c.Approvals {
		fmt.Fprintf(w, "  %s\n", approvalLine(ap))
		for _, af := range ap.Accepted {
			fmt.Fprintf(w, "    accepted: %s\n", acceptedLine(af))
		}
	}
	writeScopeText(w, rv)
	fmt.Fprintf(w, "\nfiles:\n")
	for _, f := range rv.Files {
		fmt.Fprintf(w, "  %-9s %s\n", f.Status, sanitize(f.Path))
	}
	if rv.Diff != "" {
		fmt.Fprintf(w, "\n%s", sanitize(rv.Diff))
	}
	fmt.Fprintln(w)
	if err := audit.Write(w, audit.FormatText, rv.Reports, opts); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nhistory:\n")
	for _, e := range c.History {
		fmt.Fprintf(w, "  %s  %s  %-8s %s  %s\n", shortHash(e.Commit), e.When.Format(timeLayout), oneLine(e.Action, 10),
			oneLine(e.Who.String(), 60), oneLine(e.Subject, 100))
	}
	return nil
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
