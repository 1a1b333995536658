package audit

import (
	"fmt"
	"strconv"
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

// plus adds the counts o to c when sign is 1, and takes them out when sign is -1.
func (c *findingCounts) plus(o findingCounts, sign int) {
	c.open += sign * o.open
	c.fresh += sign * o.fresh
	c.suppressed += sign * o.suppressed
	for i, n := range o.bySeverity {
		c.bySeverity[i] += sign * n
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

// matchesLine says how often the rule matched and where first, such as
// "717, first at 3:5, 9:1, 12:7, 20:2, 31:9"; empty for a single match.
func matchesLine(f Finding) string {
	if f.Count <= 1 {
		return ""
	}
	s := strconv.Itoa(f.Count)
	if len(f.Locations) == 0 {
		return s
	}
	places := make([]string, len(f.Locations))
	for i, l := range f.Locations {
		places[i] = strconv.Itoa(l.Line)
		if l.Column > 0 {
			places[i] += ":" + strconv.Itoa(l.Column)
		}
	}
	return s + ", first at " + strings.Join(places, ", ")
}

// suppressionLine says why a finding is accepted and by whom, such as
// "vendored schema (accepted by Ada <ada@example.com> in an approval)";
// empty when it is not accepted.
func suppressionLine(f Finding) string {
	if f.Suppressed == "" {
		return ""
	}
	var from []string
	if f.SuppressedBy != "" {
		from = append(from, "accepted by "+f.SuppressedBy)
	}
	switch f.SuppressedSource {
	case SourceApproval:
		from = append(from, "in an approval")
	case SourceAllowList:
		from = append(from, "in the allow list")
	}
	if len(from) == 0 {
		return f.Suppressed
	}
	return f.Suppressed + " (" + strings.Join(from, " ") + ")"
}
