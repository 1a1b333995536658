package audit

import (
	"fmt"
	"strings"
)

// findingCounts tallies findings for the reporters' summaries. Open
// findings are those not suppressed; only they count toward the risk.
type findingCounts struct {
	bySeverity [Critical + 1]int // open findings by severity
	open       int
	fresh      int // open findings that are new
	suppressed int
}

func countFindings(fs []Finding) findingCounts {
	var c findingCounts
	for _, f := range fs {
		c.add(f)
	}
	return c
}

func countSkills(skills []SkillReport) findingCounts {
	var c findingCounts
	for _, s := range skills {
		for _, f := range findingsOf(s) {
			c.add(f)
		}
	}
	return c
}

func (c *findingCounts) add(f Finding) {
	if f.Suppressed != "" {
		c.suppressed++
		return
	}
	c.open++
	if f.New {
		c.fresh++
	}
	if f.Severity >= Info && f.Severity <= Critical {
		c.bySeverity[f.Severity]++
	}
}

// all returns the number of findings, suppressed or not.
func (c findingCounts) all() int { return c.open + c.suppressed }

// severities lists the open findings by severity, most serious first,
// such as "1 critical, 2 high"; "none" when there are none.
func (c findingCounts) severities() string {
	var parts []string
	for s := Critical; s >= Info; s-- {
		if n := c.bySeverity[s]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, s))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// summary describes the counts in one phrase, such as
// "1 critical, 2 high (3 new); 1 suppressed".
func (c findingCounts) summary() string {
	s := "no findings"
	if c.open > 0 {
		s = c.severities() + fmt.Sprintf(" (%d new)", c.fresh)
	}
	if c.suppressed > 0 {
		s += fmt.Sprintf("; %d suppressed", c.suppressed)
	}
	return s
}

// plural returns "n word" with an s added unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// location renders where a finding is: "file", "file:line" or
// "file:line:col".
func location(f Finding) string {
	switch {
	case f.Line <= 0:
		return f.File
	case f.Column <= 0:
		return fmt.Sprintf("%s:%d", f.File, f.Line)
	}
	return fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Column)
}
