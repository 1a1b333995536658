// Package plan reads the tasks of a Markdown plan: list items with a checkbox, open ("[ ]") or
// done ("[x]"), so that a caller can pick the next task that is still to do.
package plan

import (
	"strings"

	"github.com/skillgit/skillgit/internal/lazyregexp"
)

// Task is one open or done item of a plan.
type Task struct {
	// Text is the item's text after the checkbox, trimmed.
	Text string
	// Line is the 1-based line the item is on.
	Line int
	// Heading is the text of the nearest heading above the item, or "" when there is none.
	Heading string
	// Done reports a checked item ("[x]" or "[X]").
	Done bool
	// indent is the item's indentation in columns, a tab counting as four.
	indent int
}

// itemRE matches a bulleted or numbered list item with a checkbox, at any indentation. The
// checkbox must be followed by a space or the end of the line, so "[ ]?" and links are not
// items.
var itemRE = lazyregexp.New(`^[ \t]*(?:[-*+]|[0-9]{1,9}[.)])[ \t]+\[([ xX])\](?:[ \t]+(.*))?$`)

// headingRE matches an ATX heading and captures its hashes and its text.
var headingRE = lazyregexp.New(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)

// Tasks returns the items of a plan in order, open and done, leaving out those in code fences
// and those under a verification or manual QA heading.
func Tasks(data []byte) []Task {
	var s scanner
	for i, line := range strings.Split(string(data), "\n") {
		s.line(i+1, strings.TrimSuffix(line, "\r"))
	}
	return s.tasks
}

// Next returns the first open task of a plan, and false when every task is done. An open
// item whose nested items are not all done is not next: its first open nested item is.
func Next(data []byte) (Task, bool) {
	ts := Tasks(data)
	for i, t := range ts {
		if !t.Done {
			return firstOpenLeaf(ts, i), true
		}
	}
	return Task{}, false
}

// firstOpenLeaf returns the first open item nested under ts[i], at any depth, or ts[i] when
// every item nested under it is done.
func firstOpenLeaf(ts []Task, i int) Task {
	for j := i + 1; j < len(ts) && ts[j].indent > ts[i].indent && ts[j].Heading == ts[i].Heading; j++ {
		if !ts[j].Done {
			return firstOpenLeaf(ts, j)
		}
	}
	return ts[i]
}

// scanner walks a plan line by line, keeping track of code fences and headings.
type scanner struct {
	fence   string // the opening fence while inside a code block, else ""
	heading string
	skipAt  int // the level of the verification heading being skipped, or 0
	tasks   []Task
}

func (s *scanner) line(n int, line string) {
	if s.inFence(line) {
		return
	}
	if m := headingRE().FindStringSubmatch(line); m != nil {
		s.enter(len(m[1]), strings.TrimSpace(m[2]))
		return
	}
	m := itemRE().FindStringSubmatch(line)
	if m == nil || s.skipAt > 0 {
		return
	}
	text := strings.TrimSpace(m[2])
	if text == "" {
		return
	}
	s.tasks = append(s.tasks, Task{Text: text, Line: n, Heading: s.heading, Done: m[1] != " ", indent: indentOf(line)})
}

// enter records a heading of the given level, starting or ending a skipped section.
func (s *scanner) enter(level int, text string) {
	s.heading = text
	if s.skipAt > 0 && level <= s.skipAt {
		s.skipAt = 0
	}
	if s.skipAt == 0 && isVerification(text) {
		s.skipAt = level
	}
}

// inFence reports whether line opens, closes or is inside a fenced code block.
func (s *scanner) inFence(line string) bool {
	t := strings.TrimLeft(line, " \t")
	if s.fence != "" {
		if strings.HasPrefix(t, s.fence) && strings.Trim(t, s.fence[:1]+" \t") == "" {
			s.fence = ""
		}
		return true
	}
	for _, c := range []string{"`", "~"} {
		if n := len(t) - len(strings.TrimLeft(t, c)); n >= 3 {
			s.fence = strings.Repeat(c, n)
			return true
		}
	}
	return false
}

// isVerification reports a heading of steps a person checks by hand, whose items are not
// tasks to implement: "Verification", "Manual QA", "Manual QA steps" and the like.
func isVerification(heading string) bool {
	words := strings.FieldsFunc(strings.ToLower(heading), func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9')
	})
	for i, w := range words {
		if w == "verification" || w == "manual" && i+1 < len(words) && words[i+1] == "qa" {
			return true
		}
	}
	return false
}

// indentOf measures the leading blanks of line in columns, a tab counting as four.
func indentOf(line string) int {
	n := 0
	for _, r := range line {
		switch r {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}
