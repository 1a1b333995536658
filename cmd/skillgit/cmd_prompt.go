package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/published"
)

type promptOptions struct {
	app               *app
	profile, task     string
	match, limitSet   bool
	limit, maxChars   int
	withBodies, event bool
	withRefs          bool
	installed         installedFlags
	planFlags
	write promptWrite
}

type promptJSON struct {
	Skills   []promptEntry  `json:"skills"`
	Shadowed []shadowedJSON `json:"shadowed,omitempty"`
	*planInfo
}

type promptEntry struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Location    string `json:"location"`
	Body        string `json:"body,omitempty"`
	Truncated   bool   `json:"truncated,omitempty"`
	Scope       string `json:"scope,omitempty"`
	baseDir     string
}

func newPromptCmd(a *app) *cobra.Command {
	o := &promptOptions{app: a}
	c := &cobra.Command{
		Use:   "prompt [--profile P | --match TASK | --plan FILE] [--limit N | --step STEP] [--with-bodies [--max-chars N]]",
		Short: "Print the <available_skills> block for an agent's system prompt",
		Long: `Print the <available_skills> block of published skills for an agent's system prompt.
Without --profile or --match it lists every published skill. --profile P lists the
skills of profile P of .skillgit.yaml, in the profile's order. --match TASK lists the
skills that match TASK best, as 'skillgit match' ranks them: at most --limit N
(default 5; 0 lists every match). --profile and --match exclude each other.
Each <location> is the SKILL.md of a read-only copy of the published folder under
the git dir (skillgit/published/), never the working tree, which may hold edits
that are not published.

--with-bodies prints after the block each listed skill's SKILL.md the way
'skillgit read' does. --max-chars N cuts each of those bodies to N characters,
at a line end if one is near, and ends it with a line saying how much is shown
and how to read the rest (0, the default, means no limit).

A skill that cannot be loaded (a profile names a skill that is not published, a
SKILL.md that is too large or unreadable, a folder too large to copy or holding a
name the path policy refuses) is reported as a warning on stderr and left out;
the others are printed. --events writes progress on stderr as NDJSON, one JSON
object per line with a "type": skills_discovered {count},
skills_selected {names, by: all|profile|match, profile, task, step},
skill_load_failed {name, error}, skill_truncated {name, chars, max_chars},
warning {message}, with --plan task_selected {plan, task, line, heading, step}
first, and last summary {discovered, selected, load_failed, truncated}; with
it, stderr carries nothing else until an error ends the command.

Exit status 0, also when no skill matches a task; 1 when none of a profile's
skills could be loaded, or on an error; 2 on a usage error.

--with-references, with --with-bodies, appends after each SKILL.md the text files
below the skill's references/ folder (regular files only, in path order), each
after a "Reference: PATH" line, within the same --max-chars budget.
` + installedHelp + planHelp,
		Args: o.planArgs(exactArgs(0)),
		RunE: func(c *cobra.Command, args []string) error {
			o.match, o.limitSet = c.Flags().Changed("match"), c.Flags().Changed("limit")
			if err := o.checkPlanPrompt(); err != nil {
				return err
			}
			return runPrompt(o)
		},
	}
	f := c.Flags()
	f.StringVar(&o.profile, "profile", "", "list the skills of profile `P` of .skillgit.yaml, in its order")
	f.StringVar(&o.task, "match", "", "list the skills that match `TASK` best")
	f.IntVar(&o.limit, "limit", defaultMatchLimit, "with --match, list at most `N` skills; 0 lists every match")
	f.BoolVar(&o.withBodies, "with-bodies", false, "print each listed skill's SKILL.md after the block")
	f.IntVar(&o.maxChars, "max-chars", 0, "with --with-bodies, cut each SKILL.md to `N` characters (0: no limit)")
	f.BoolVar(&o.event, "events", false, "write progress events on stderr as NDJSON")
	f.BoolVar(&o.withRefs, "with-references", false, "with --with-bodies, append each skill's references/ text files")
	addInstalledFlags(c, &o.installed)
	o.addPlanFlags(c)
	addPromptWrite(c, &o.write)
	a.addJSON(c)
	return c
}

// checkPromptFlags reports flags that contradict each other as usage errors.
func checkPromptFlags(o *promptOptions) error {
	switch {
	case o.profile != "" && o.match:
		return usageError{fmt.Errorf("--profile and --match exclude each other; choose skills by one of them")}
	case o.limitSet && !o.match:
		return usageError{fmt.Errorf("--limit applies only with --match")}
	case o.limit < 0:
		return usageError{fmt.Errorf("--limit is %d; it must be 0 (every match) or more", o.limit)}
	case o.maxChars < 0:
		return usageError{fmt.Errorf("--max-chars is %d; it must be 0 (no limit) or more", o.maxChars)}
	case o.maxChars > 0 && !o.withBodies:
		return usageError{fmt.Errorf("--max-chars applies only with --with-bodies")}
	case o.withRefs && !o.withBodies:
		return usageError{fmt.Errorf("--with-references applies only with --with-bodies")}
	}
	return o.write.check(o.withBodies)
}

func runPrompt(o *promptOptions) error {
	a := o.app
	if err := checkPromptFlags(o); err != nil {
		return err
	}
	if o.installed.set() {
		return runPromptInstalled(o)
	}
	r, err := lifecycle.Open(a.repo)
	if noSkillRepository(err) {
		return runPromptInstalled(o)
	}
	if err != nil {
		return err
	}
	defer r.Close()
	pi, err := o.resolvePlan(a.path, r.Config(), &o.task, &o.limit)
	if err != nil {
		return err
	}
	pub := r.Published()
	sel, err := pub.SelectPrompt(published.PromptOptions{Profile: o.profile, Match: o.match, Task: o.task,
		Limit: o.limit, Bodies: o.withBodies})
	if err != nil {
		return err
	}
	p := &promptRun{app: a, ev: eventWriter{w: a.Err, on: o.event, counts: &eventCounts{}}, o: o}
	p.reportTask(pi)
	p.reportSelection(sel)
	out, err := p.entries(pub, sel)
	if err != nil {
		return err
	}
	if sel.By == published.SelectProfile && len(out.Skills) == 0 {
		return fmt.Errorf("profile %q: none of its skills could be loaded; the warnings above say why", o.profile)
	}
	if sel.By == published.SelectMatch && len(sel.Selected) == 0 && pi.open() {
		p.note("no published skill matches the task")
	}
	out.planInfo = pi
	if err := o.emit(out); err != nil {
		return err
	}
	p.ev.summary()
	return nil
}

// promptRun reports what one prompt command selected, as warnings or as events.
type promptRun struct {
	*app
	ev eventWriter
	o  *promptOptions
}

// warn reports a warning as a warning event with --events, else as a line on stderr.
func (p *promptRun) warn(msg string) {
	if p.ev.on {
		p.ev.emit(warningEvent{Type: "warning", Message: msg})
		return
	}
	p.app.warn("%s", sanitize(msg))
}

// note reports something worth knowing that is not wrong: a warning event with --events, else
// a plain line on stderr in text mode.
func (p *promptRun) note(msg string) {
	switch {
	case p.ev.on:
		p.ev.emit(warningEvent{Type: "warning", Message: msg})
	case !p.json:
		fmt.Fprintln(p.Err, msg)
	}
}

func (p *promptRun) reportSelection(sel *published.PromptSelection) {
	if !p.ev.on {
		p.printProblems(sel.Problems)
	}
	for _, pr := range sel.Problems {
		p.ev.emit(warningEvent{Type: "warning", Message: pr.String()})
	}
	p.ev.emit(discoveredEvent{Type: "skills_discovered", Count: sel.Discovered})
	se := selectedEvent{Type: "skills_selected", Names: append([]string{}, sel.Selected...), By: sel.By, Profile: p.o.profile, Step: p.o.step}
	if p.o.match {
		se.Task = &p.o.task
	}
	p.ev.emit(se)
	for _, h := range sel.UnknownHints {
		p.warn(fmt.Sprintf("hint %q: no published skill has that name", h))
	}
	for _, f := range sel.Failures {
		if p.ev.on {
			p.ev.emit(loadFailedEvent{Type: "skill_load_failed", Name: f.Name, Error: f.Reason()})
		} else {
			p.app.warn("%s: %s", sanitize(f.Name), sanitize(f.Reason()))
		}
	}
}

// entries turns the selection into output entries, cutting bodies to --max-chars. Each
// location is in the read-only copy of the published folder, never in the working tree.
func (p *promptRun) entries(pub *published.Channel, sel *published.PromptSelection) (promptJSON, error) {
	out := promptJSON{Skills: make([]promptEntry, 0, len(sel.Skills))}
	pc := pub.Copies()
	defer pc.Prune()
	for _, ps := range sel.Skills {
		s := ps.Skill
		dir, err := pc.Dir(s)
		if uncopyable(err) {
			p.copyFailed(s.Name, err)
			continue
		}
		if err != nil {
			return out, err
		}
		loc, err := pc.Location(s)
		if err != nil {
			return out, err
		}
		e := promptEntry{Name: s.Name, Description: s.Description, Location: loc, baseDir: dir}
		if p.o.withBodies {
			if err := p.setBody(&e, ps.Body, func() ([]catalog.Reference, error) { return pub.References(s) }); err != nil {
				return out, err
			}
		}
		out.Skills = append(out.Skills, e)
	}
	return out, nil
}

// uncopyable reports an error of one skill's published folder alone: too large to copy, or
// holding a name the path policy refuses. Other errors, such as an unreadable object, fail
// the prompt.
func uncopyable(err error) bool {
	return errors.Is(err, published.ErrCopyTooLarge) || errors.Is(err, catalog.ErrUnsafePath)
}

// copyFailed reports a skill left out because its published folder could not be copied.
func (p *promptRun) copyFailed(name string, err error) {
	reason := strings.TrimPrefix(err.Error(), name+": ")
	if p.ev.on {
		p.ev.emit(loadFailedEvent{Type: "skill_load_failed", Name: name, Error: reason})
		return
	}
	p.app.warn("%s: %s", sanitize(name), sanitize(reason))
}

// printPrompt writes the <available_skills> block and, with bodies, each SKILL.md after it.
func printPrompt(w io.Writer, entries []promptEntry, bodies bool) error {
	var b bytes.Buffer
	list := make([]catalog.PromptEntry, len(entries))
	for i, e := range entries {
		list[i] = catalog.PromptEntry{Name: e.Name, Description: e.Description, Location: e.Location, Scope: e.Scope}
	}
	if err := catalog.WritePrompt(&b, list); err != nil {
		return err
	}
	for _, e := range entries {
		if !bodies {
			break
		}
		b.WriteByte('\n')
		if err := catalog.WriteRead(&b, e.Name, e.baseDir, []byte(e.Body)); err != nil {
			return err
		}
	}
	return writeSkillText(w, b.Bytes())
}
