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
	// maxComment is the longest comment GitHub takes, in characters; the comment is measured
	// in bytes, which are never fewer.
	maxComment = 65536
	// maxMarkdownFiles bounds the list of changed files in a comment.
	maxMarkdownFiles = 300
	// cutNoteRoom is kept free for the note that says what was cut.
	cutNoteRoom = 400
)

// writeReviewMarkdown writes a review as a pull-request comment: the verdict first, then the
// audit's findings, the files, the diff folded in a <details> block and the history. The
// comment stays within GitHub's limit: the diff is cut first, then the findings, each with a
// note that says what was cut and how to see all of it. Text from the repository is shown
// in code spans and fences it cannot close, so it can neither format the comment nor mention
// anyone.
func writeReviewMarkdown(w io.Writer, rv *lifecycle.Review, required int, opts audit.WriteOptions) error {
	var rep bytes.Buffer
	if err := audit.WriteMarkdown(&rep, rv.Reports, opts); err != nil {
		return err
	}
	files := reviewFiles(rv)
	head := markdownHead(rv, required)
	changes := markdownChanges(files)
	tail := markdownHistory(rv.Candidate) + "\n" + reviewMarker
	findings := "\n### Audit\n\n" + strings.TrimSuffix(rep.String(), auditMarker)
	room := maxComment - len(head) - len(changes) - len(tail)
	diff := markdownDiff(rv.Diff, files, rv.Candidate.ID, room-len(findings))
	findings = cutFindings(findings, rv.Candidate.ID, room-len(diff))
	_, err := io.WriteString(w, head+findings+changes+diff+tail)
	return err
}

// markdownHead is the verdict line, the approvals and the warnings about scope and conflicts.
func markdownHead(rv *lifecycle.Review, required int) string {
	c := rv.Candidate
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**: candidate %s (%s of skill %s), risk **%s**, fail_on **%s**, state %s, %d of %d approvals\n",
		rv.Verdict, mdCode(c.ID), mdCode(string(c.Change)), mdCode(c.Skill), rv.Risk, rv.FailOn, c.State, len(c.Approvals), required)
	if c.Pack != "" {
		fmt.Fprintf(&b, "- pack: %s\n", mdCode(c.Pack))
	}
	for _, l := range duplicateLines(c) {
		fmt.Fprintf(&b, "- :warning: dedupe: %s\n", mdCode(l))
	}
	if c.Unverified != "" {
		fmt.Fprintf(&b, "- :warning: content %s\n", mdCode(unverifiedLine(c)))
	}
	for _, ap := range c.Approvals {
		fmt.Fprintf(&b, "- approved: %s\n", mdCode(approvalLine(ap)))
		for _, af := range ap.Accepted {
			fmt.Fprintf(&b, "  - accepted: %s\n", mdCode(acceptedLine(af)))
		}
	}
	writeScopeMarkdown(&b, rv)
	return b.String()
}

// markdownChanges lists the changed files with the lines each adds and removes.
func markdownChanges(files []reviewFile) string {
	var b strings.Builder
	b.WriteString("\n### Changes\n\n")
	for i, f := range files {
		if i == maxMarkdownFiles {
			fmt.Fprintf(&b, "- and %d more files\n", len(files)-i)
			break
		}
		fmt.Fprintf(&b, "- %s %s +%d −%d\n", f.Status, mdCode(f.Path), f.Added, f.Removed)
	}
	return b.String()
}

// markdownHistory lists the candidate's history, oldest first.
func markdownHistory(c *lifecycle.Candidate) string {
	var b strings.Builder
	b.WriteString("\n### History\n\n")
	for _, e := range c.History {
		fmt.Fprintf(&b, "- %s %s by %s: %s\n", e.When.Format(timeLayout), mdCode(e.Action), mdCode(e.Who.String()), mdCode(e.Subject))
	}
	return b.String()
}

// markdownDiff folds a diff into a <details> block, in a fence longer than any run of
// backticks in it, cut at a line end to fit in room bytes with a note that says so. When not
// even a cut diff fits, only the note is left.
func markdownDiff(diff string, files []reviewFile, id string, room int) string {
	if diff == "" {
		return ""
	}
	diff = sanitize(diff)
	if !strings.HasSuffix(diff, "\n") {
		diff += "\n"
	}
	added, removed := diffTotals(files)
	summary := fmt.Sprintf("Diff: %d file(s), +%d −%d", len(files), added, removed)
	fence := strings.Repeat("`", max(3, longestRun(diff, '`')+1))
	block := func(d string) string {
		return "\n<details><summary>" + summary + "</summary>\n\n" + fence + "diff\n" + d + fence + "\n\n</details>\n"
	}
	if out := block(diff); len(out) <= room {
		return out
	}
	lines := strings.Count(diff, "\n")
	keep := room - len(block("")) - cutNoteRoom
	if keep < 1024 {
		return fmt.Sprintf("\n> [!NOTE]\n> The diff (%d lines) is left out to keep this comment within GitHub's limit; "+
			"`skillgit review %s` shows it, `skillgit review %s --stat` lists the files.\n", lines, id, id)
	}
	cut := diff[:strings.LastIndexByte(diff[:keep], '\n')+1]
	return block(cut) + fmt.Sprintf("\n> [!NOTE]\n> The diff is cut to keep this comment within GitHub's limit: it shows %d of %d lines. "+
		"`skillgit review %s` shows all of it, `skillgit review %s --stat` lists the files.\n", strings.Count(cut, "\n"), lines, id, id)
}

// cutFindings cuts the findings at a line end to fit in room bytes, with a note that says so.
func cutFindings(findings, id string, room int) string {
	if len(findings) <= room {
		return findings
	}
	keep := max(0, room-cutNoteRoom)
	cut := findings[:strings.LastIndexByte(findings[:keep], '\n')+1]
	return cut + fmt.Sprintf("\n> [!NOTE]\n> The findings are cut to keep this comment within GitHub's limit: %d of %d lines are shown. "+
		"`skillgit review %s --findings` shows all of them.\n", strings.Count(cut, "\n"), strings.Count(findings, "\n"), id)
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
