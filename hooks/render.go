package hooks

import (
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/termtext"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
)

// printer writes a hook's report for a terminal.
type printer struct {
	w    io.Writer
	hook string
}

// line writes one line; text from outside is sanitized, and every line says where it comes
// from when the hook runs on a server, whose output git relays among its own.
func (p printer) line(format string, args ...any) {
	s := termtext.Line(fmt.Sprintf(format, args...))
	if p.hook == PreReceive || !strings.HasPrefix(s, "  ") {
		s = "skillgit: " + strings.TrimLeft(s, " ")
	}
	fmt.Fprintln(p.w, s)
}

func (p printer) warnings(ws []string) {
	for _, w := range ws {
		p.line("%s", w)
	}
}

// blocked writes why the hook refuses: the findings at or above the fail-on risk, the
// validation problems, and how to see more and how to fix it.
func (p printer) blocked(run *auditrun.HookRun, updates []gitstore.RefUpdate) {
	what := "commit"
	if p.hook != PreCommit {
		what = "push"
	}
	p.line("%s refused: %s (fail_on: %s)", what, run.Title, run.FailOn)
	var paths []string
	for _, s := range run.Reports {
		if n := p.findings(s, run.FailOn); n > 0 {
			paths = append(paths, s.Path)
		}
	}
	for _, pr := range run.Problems {
		p.line("  %s", oneLine(pr.String()))
	}
	for _, rf := range run.Refusals {
		p.line("  %s", oneLine(rf))
	}
	if len(run.Refusals) > 0 && len(paths) == 0 && len(run.Problems) == 0 {
		return
	}
	p.advice(paths, updates)
}

// findings writes the open findings of s at or above failOn and returns how many there were.
func (p printer) findings(s audit.SkillReport, failOn audit.Risk) int {
	if s.Report == nil {
		return 0
	}
	n := 0
	for _, f := range s.Report.Findings {
		if f.Suppressed != "" || f.Severity.Risk() < failOn {
			continue
		}
		n++
		loc := path.Join(s.Path, f.File)
		if f.Line > 0 {
			loc = fmt.Sprintf("%s:%d", loc, f.Line)
		}
		p.line("  %s: %s %s (%s): %s", s.Name, loc, f.RuleID, f.Severity, oneLine(f.Message))
	}
	return n
}

// advice says how to see the details and how to get the change through.
func (p printer) advice(paths []string, updates []gitstore.RefUpdate) {
	switch p.hook {
	case PreCommit:
		if len(paths) > 0 {
			p.line("details: skillgit audit %s", strings.Join(paths, " "))
		}
		p.line("fix the skill or file named above, stage the fix with `git add` and commit again, or unstage it with `git restore --staged <path>`")
	default:
		for _, u := range updates {
			if !u.New.IsZero() {
				p.line("details: skillgit audit --rev %s", revRange(u))
			}
		}
		p.line("fix the skill in a new commit (or rewrite the pushed commits) and push again")
	}
}

// revRange names what a ref update brings as `skillgit audit --rev` takes it.
func revRange(u gitstore.RefUpdate) string {
	if u.Old.IsZero() {
		return u.New.String()[:12]
	}
	return u.Old.String()[:12] + ".." + u.New.String()[:12]
}

// oneLine folds s onto one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// WritePushRefusal writes why the audit refuses a push, as the pre-push hook does: for
// `skillgit push`, which runs the same audit before it sends anything.
func WritePushRefusal(w io.Writer, run *auditrun.HookRun, updates []gitstore.RefUpdate) {
	printer{w: w, hook: PrePush}.blocked(run, updates)
}
