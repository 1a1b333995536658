package catalog

import (
	"cmp"
	"fmt"
	"path"
	"slices"
)

// severity says what a rule break means in each mode.
type severity int

const (
	// fatal problems keep the skill from loading in every mode.
	fatal severity = iota
	// soft problems are errors in strict mode and warnings in lenient mode.
	soft
	// advisory problems are warnings in every mode.
	advisory
)

// maxProblems bounds the problems kept for one file, so that a hostile
// file with thousands of bad keys cannot flood a report.
const maxProblems = 100

// checker collects the problems of one SKILL.md.
type checker struct {
	dir      string
	file     string
	mode     Mode
	problems []Problem
	dropped  int  // problems left out beyond maxProblems
	failed   bool // an error-level problem was reported
	// meta, when set, compacts the strings of the skills read one after
	// another and shares their equal metadata maps.
	meta *metaInterner
}

func newChecker(dir string, mode Mode) *checker {
	return &checker{dir: dir, file: path.Join(dir, FileName), mode: mode}
}

// report records a problem at line of the SKILL.md.
func (c *checker) report(sev severity, line int, format string, args ...any) {
	c.reportAt(c.file, sev, line, format, args...)
}

// reportAt records a problem about file, which may be the skill's folder.
func (c *checker) reportAt(file string, sev severity, line int, format string, args ...any) {
	warning := sev == advisory || (sev == soft && c.mode == Lenient)
	if !warning {
		c.failed = true
	}
	if len(c.problems) == maxProblems {
		c.dropped++
		return
	}
	c.problems = append(c.problems, Problem{
		File:    file,
		Line:    line,
		Message: fmt.Sprintf(format, args...),
		Warning: warning,
	})
}

// result returns s, or nil when an error-level problem keeps it from
// loading, together with every problem found.
func (c *checker) result(s *Skill) (*Skill, []Problem) {
	slices.SortStableFunc(c.problems, func(a, b Problem) int {
		return cmp.Compare(a.Line, b.Line)
	})
	if c.dropped > 0 {
		c.problems = append(c.problems, Problem{
			File:    c.file,
			Message: fmt.Sprintf("%d more problems are not shown; fix the ones above first", c.dropped),
			Warning: !c.failed,
		})
	}
	if c.failed {
		return nil, c.problems
	}
	return s, c.problems
}

// folderName returns the base name of the skill folder, which its name must equal.
func (c *checker) folderName() string {
	return path.Base(c.dir)
}
