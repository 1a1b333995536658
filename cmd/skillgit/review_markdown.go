package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/lifecycle"
)

const (
	// reviewMarker lets a CI job find and update its earlier review comment.
	reviewMarker = "<!-- skillgit-review -->\n"
	// auditMarker is the audit comment's own marker, left out of a review comment.
	auditMarker = "<!-- skillgit-audit -->\n"
	// maxMarkdownDiff bounds the diff in a comment, which GitHub caps at 65,536 characters.
	maxMarkdownDiff = 32 << 10
)

// writeReviewMarkdown writes a review as a pull-request comment: the verdict first, then the
// files, the diff, the audit's findings and the history. Text from the repository is shown in
// code spans and fences it cannot close, so it can neither format the comment nor mention
// anyone.
func writeReviewMarkdown(w io.Writer, rv *lifecycle.Review, required int, opts audit.WriteOptions) error {
	c := rv.Candidate
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**: candidate %s (%s of skill %s), risk **%s**, fail_on **%s**, state %s, %d of %d approvals\n",
		rv.Verdict, mdCode(c.ID), mdCode(string(c.Change)), mdCode(c.Skill), rv.Risk, rv.FailOn, c.State, len(c.Approvals), required)
	for _, ap := range c.Approvals {
		fmt.Fprintf(&b, "- approved: %s\n", mdCode(approvalLine(ap)))
		for _, af := range ap.Accepted {
			fmt.Fprintf(&b, "  - accepted: %s\n", mdCode(acceptedLine(af)))
		}
	}
	writeScopeMarkdown(&b, rv)
	b.WriteString("\n### Changes\n\n")
	for _, f := range rv.Files {
		fmt.Fprintf(&b, "- %s %s\n", f.Status, mdCode(f.Path))
	}
	if rv.Diff != "" {
		b.WriteString("\n" + markdownDiff(rv.Diff, c.ID))
	}
	b.WriteString("\n### Audit\n\n")
	var rep bytes.Buffer
	if err := audit.WriteMarkdown(&rep, rv.Reports, opts); err != nil {
		return err
	}
	b.WriteString(strings.TrimSuffix(rep.String(), auditMarker))
	b.WriteString("\n### History\n\n")
	for _, e := range c.History {
		fmt.Fprintf(&b, "- %s %s by %s: %s\n", e.When.Format(timeLayout), mdCode(e.Action), mdCode(e.Who.String()), mdCode(e.Subject))
	}
	b.WriteString("\n" + reviewMarker)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeScopeMarkdown warns about changes outside the candidate's scope and folders in
// conflict with the publish branch.
func writeScopeMarkdown(b *strings.Builder, rv *lifecycle.Review) {
	if !rv.Scope.InScope() {
		fmt.Fprintf(b, "\n> [!CAUTION]\n> **Out of scope**: the branch changes paths beyond %s; approve and publish refuse it:\n",
			mdCode(strings.Join(rv.Scope.Declared, ", ")))
		for _, p := range rv.Scope.Outside {
			fmt.Fprintf(b, "> - %s\n", mdCode(p))
		}
	}
	for _, p := range rv.Conflicts {
		fmt.Fprintf(b, "\n- conflict: the publish branch changed %s too; rebase the candidate\n", mdCode(p))
	}
}

// markdownDiff puts a diff in a fenced block whose fence is longer than any run of backticks
// in it, cut at a line end when it is too long for a comment.
func markdownDiff(diff, id string) string {
	diff = sanitize(diff)
	cut := false
	if len(diff) > maxMarkdownDiff {
		diff, cut = diff[:strings.LastIndexByte(diff[:maxMarkdownDiff], '\n')+1], true
	}
	if !strings.HasSuffix(diff, "\n") {
		diff += "\n"
	}
	fence := strings.Repeat("`", max(3, longestRun(diff, '`')+1))
	out := fence + "diff\n" + diff + fence + "\n"
	if cut {
		out += fmt.Sprintf("\nThe diff is cut at %d bytes; `skillgit review %s` shows all of it.\n", maxMarkdownDiff, id)
	}
	return out
}

// mdCode shows s on one line as a Markdown code span that no backtick in s can end.
func mdCode(s string) string {
	s = oneLine(s, 300)
	if s == "" {
		return "(none)"
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}
