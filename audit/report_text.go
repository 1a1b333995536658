package audit

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// ANSI styles of the text format.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiRed    = "\x1b[1;31m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
	ansiGreen  = "\x1b[32m"
)

// WriteText writes skills for a person to read: per skill a line with its
// verdict, risk and counts, then each finding as
// "file:line:col  SEVERITY  RULE  message" with its snippet, decoded text,
// suppression and base state indented below, and a closing summary line.
// Text from the skill is shown with control and invisible characters
// spelled out, so it cannot drive the terminal.
func WriteText(w io.Writer, skills []SkillReport, o WriteOptions) error {
	return writeTextIndexed(w, skills, o, nil)
}

// A text report is its head, one block for each skill, and its tail. A block does not depend
// on the skills around it and the tail depends only on the run's tally, so that a report can
// be changed one skill at a time (see cache_printed_change.go).

func newTextWriter(w io.Writer, o WriteOptions) *textWriter {
	return &textWriter{w: bufio.NewWriter(w), color: o.Color}
}

// head writes the title line.
func (tw *textWriter) head(o WriteOptions) {
	if o.Title != "" {
		tw.printf("skillgit audit of %s\n\n", cleanLine(o.Title))
	}
}

// block writes the lines of skill s and the blank line that ends them.
func (tw *textWriter) block(s SkillReport, failOn Risk) {
	tw.skill(s, failOn)
	tw.write("\n")
}

// tail writes the summary of a run of tally t, and the note on code parsers.
func (tw *textWriter) tail(t runTally, failOn Risk) {
	tw.summary(t, failOn)
	if note := CodeParsers().Note; note != "" {
		tw.printf("note: %s\n", note)
	}
}

// finish flushes what was written and returns the first error.
func (tw *textWriter) finish() error {
	if tw.err == nil {
		tw.err = tw.w.Flush()
	}
	if tw.err != nil {
		return fmt.Errorf("write text report: %w", tw.err)
	}
	return nil
}

// textWriter keeps the first write error, so that the rendering code
// reads straight through.
type textWriter struct {
	w     *bufio.Writer
	color bool
	err   error
	// n counts the bytes written, for an index of the report's blocks.
	n int
}

func (tw *textWriter) printf(format string, args ...any) {
	if tw.err == nil {
		var n int
		n, tw.err = fmt.Fprintf(tw.w, format, args...)
		tw.n += n
	}
}

// write writes parts one after another: the lines of every skill and finding are written
// without fmt, which a report of 100,000 skills would feel.
func (tw *textWriter) write(parts ...string) {
	for _, p := range parts {
		if tw.err != nil {
			return
		}
		var n int
		n, tw.err = tw.w.WriteString(p)
		tw.n += n
	}
}

// paint wraps s in an ANSI style when color is on.
func (tw *textWriter) paint(style, s string) string {
	if !tw.color || style == "" {
		return s
	}
	return style + s + ansiReset
}

func (tw *textWriter) skill(s SkillReport, failOn Risk) {
	fs := findingsOf(s)
	where := cleanLine(s.Path)
	if s.Base != "" {
		where += ", against " + cleanLine(s.Base)
	}
	v := judgeReport(s.Report, failOn)
	tw.write(tw.paint(ansiBold, cleanLine(s.Name)), " (", where, "): ", tw.paint(verdictStyle(v), v.String()),
		", risk ", riskOfSkill(s).String(), "; ", countFindings(fs).summary(), "\n")
	for _, f := range fs {
		tw.finding(f, s.Base)
	}
}

func (tw *textWriter) finding(f Finding, base string) {
	sev := strings.ToUpper(f.Severity.String())
	tw.write("  ", cleanLine(location(f)), "  ", tw.paint(severityStyle(f.Severity), sev), "  ", f.RuleID, "  ",
		cleanLine(f.Message), "\n")
	tw.detail("fingerprint", f.Fingerprint)
	tw.detail("matches", matchesLine(f))
	tw.detail("snippet", f.Snippet)
	tw.detail("decoded", f.Decoded)
	if !f.New {
		tw.detail("pre-existing", "also in "+baseName(base))
	}
	tw.detail("suppressed", suppressionLine(f))
}

func (tw *textWriter) detail(label, value string) {
	if value != "" {
		tw.write("      ", tw.paint(ansiDim, label), ": ", cleanLine(value), "\n")
	}
}

func (tw *textWriter) summary(t runTally, failOn Risk) {
	v := t.verdict()
	if t.skills == 0 {
		tw.printf("No skills to audit: none found or changed. Fail-on %s: %s\n", failOn, tw.paint(verdictStyle(v), v.String()))
		return
	}
	tw.printf("%s: %s. Overall risk %s, fail-on %s: %s\n", plural(t.skills, "skill"),
		t.counts.summary(), t.risk(), failOn, tw.paint(verdictStyle(v), v.String()))
}

// baseName names a base version in prose.
func baseName(base string) string {
	if base == "" {
		return "the base version"
	}
	return base
}

func severityStyle(s Severity) string {
	switch {
	case s >= High:
		return ansiRed
	case s == Medium:
		return ansiYellow
	case s == Low:
		return ansiCyan
	}
	return ansiDim
}

func verdictStyle(v Verdict) string {
	switch v {
	case VerdictBlocked:
		return ansiRed
	case VerdictReview:
		return ansiYellow
	}
	return ansiGreen
}
