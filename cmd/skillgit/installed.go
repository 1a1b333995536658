package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/agentsync"
	"github.com/skillgit/skillgit/lifecycle/published"
)

// installedFlags are the flags of match, prompt and read that choose installed skills.
type installedFlags struct {
	on   bool
	dirs []string
}

// addInstalledFlags declares --installed and --skills-dir on c.
func addInstalledFlags(c *cobra.Command, f *installedFlags) {
	c.Flags().BoolVar(&f.on, "installed", false, "read the skills installed in agents' folders instead of the publish branch")
	c.Flags().StringArrayVar(&f.dirs, "skills-dir", nil, "read installed skills from `DIR` only (repeatable; implies --installed)")
}

// installedHelp is the part of the help of match, prompt and read about installed skills.
const installedHelp = `
With --installed, and by default outside a skillgit repository, the skills are
those installed for agents: the project's .agent/skills, .agents/skills and
.claude/skills (the project is the git work tree around the folder skillgit runs
in, else that folder), then the same three in the home folder. --skills-dir DIR
(repeatable) or $SKILLGIT_SKILLS_DIRS (a path list) names the only folders read.
The first skill of a name wins and a warning names each one it hides ("shadowed"
in JSON; a skill_shadowed {name, path, by} event with prompt --events); a copy
holding the same files, byte for byte, as sync installs for two agents, hides
nothing and is not named (the manifest's hashes spare reading it); a skill
that agents would skip is left out with a warning (skill_load_failed). A symbolic
link to a skill is followed only when it stays inside its skills folder. Each
skill's "scope" is project or global (<scope> in the prompt block).`

// set reports whether the flags ask for installed skills outright.
func (f *installedFlags) set() bool { return f.on || len(f.dirs) > 0 }

// noSkillRepository reports the error of lifecycle.Open where no skillgit repository is
// found, where installed skills are read instead.
func noSkillRepository(err error) bool {
	return errors.Is(err, lifecycle.ErrNotInitialized) || errors.Is(err, gitstore.ErrNotRepository)
}

// load reads the installed skills, seen from dir, that the flags and SKILLGIT_SKILLS_DIRS name.
func (f *installedFlags) load(dir string) (*published.Installed, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, err
	}
	o := published.InstalledOptions{Dir: dir, SkillsDirs: f.dirs}
	if len(o.SkillsDirs) == 0 {
		o.SkillsDirs = published.SplitSkillsDirs(getenv(published.SkillsDirsEnv))
	}
	if home, err := os.UserHomeDir(); err == nil {
		o.Home = home
	}
	return published.LoadInstalled(o)
}

// shadowedJSON is an installed skill hidden by an earlier one of its name.
type shadowedJSON struct {
	Name string `json:"name"`
	Path string `json:"path"`
	By   string `json:"by"`
}

// shadowedEvent is the event of --events for a shadowedJSON.
type shadowedEvent struct {
	Type string `json:"type"` // skill_shadowed
	shadowedJSON
}

func toShadowedJSON(list []published.Shadowed) []shadowedJSON {
	out := make([]shadowedJSON, len(list))
	for i, s := range list {
		out[i] = shadowedJSON{Name: s.Name, Path: s.Dir, By: s.By}
	}
	return out
}

// shadowWarning says which skill hides which.
func shadowWarning(s shadowedJSON) string {
	return fmt.Sprintf("skill %q: %s is hidden by %s, which comes first", s.Name, s.Path, s.By)
}

// warnInstalled warns about hidden skills and about skills agents would skip.
func (a *app) warnInstalled(shadowed []shadowedJSON, failures []published.PromptFailure) {
	for _, s := range shadowed {
		a.warn("%s", sanitize(shadowWarning(s)))
	}
	for _, f := range failures {
		a.warn("%s: %s", sanitize(f.Name), sanitize(f.Reason()))
	}
}

func runMatchInstalled(o *matchOptions) error {
	a, task := o.app, o.task
	in, err := o.installed.load(a.repo)
	if err != nil {
		return err
	}
	pi, err := o.resolvePlan(a.path, nil, &task, &o.limit)
	if err != nil {
		return err
	}
	res := in.Match(task, catalog.MatchOptions{Limit: o.limit, Hints: o.hints})
	pi.clear(res)
	a.notePlan(pi)
	out := toMatchJSON(res)
	out.planInfo = pi
	out.Shadowed = toShadowedJSON(in.Shadowed)
	a.warnInstalled(out.Shadowed, in.Failures)
	for i, m := range res.Matches {
		out.Matches[i].Scope = in.Of(m.Skill).Scope
	}
	for _, h := range res.UnknownHints {
		a.warn("hint %q: no installed skill has that name", sanitize(h))
	}
	if len(out.Matches) == 0 && !a.json && pi.open() {
		fmt.Fprintln(a.Err, "no installed skill matches the task")
	}
	return a.printResult(out, func(w io.Writer) error { return printMatches(w, out.Matches) })
}

func runPromptInstalled(o *promptOptions) error {
	a := o.app
	in, err := o.installed.load(a.repo)
	if err != nil {
		return err
	}
	pi, err := o.resolvePlan(a.path, nil, &o.task, &o.limit)
	if err != nil {
		return err
	}
	sel, err := in.SelectPrompt(published.PromptOptions{Profile: o.profile, Match: o.match, Task: o.task,
		Limit: o.limit, Bodies: o.withBodies})
	if err != nil {
		return err
	}
	p := &promptRun{app: a, ev: eventWriter{w: a.Err, on: o.event, counts: &eventCounts{}}, o: o}
	p.reportTask(pi)
	hints := sel.UnknownHints
	sel.UnknownHints = nil
	shadowed := toShadowedJSON(in.Shadowed)
	for _, s := range shadowed {
		if p.ev.on {
			p.ev.emit(shadowedEvent{Type: "skill_shadowed", shadowedJSON: s})
		} else {
			p.app.warn("%s", sanitize(shadowWarning(s)))
		}
	}
	p.reportSelection(sel)
	for _, h := range hints {
		p.warn(fmt.Sprintf("hint %q: no installed skill has that name", h))
	}
	out := promptJSON{Skills: make([]promptEntry, 0, len(sel.Skills)), Shadowed: shadowed}
	for _, ps := range sel.Skills {
		is := in.Of(ps.Skill)
		e := promptEntry{Name: is.Skill.Name, Description: is.Skill.Description, Location: is.Location(),
			Scope: is.Scope, baseDir: is.Dir}
		if o.withBodies {
			if err := p.setBody(&e, ps.Body, is.References); err != nil {
				return err
			}
		}
		out.Skills = append(out.Skills, e)
	}
	if sel.By == published.SelectMatch && len(sel.Selected) == 0 && pi.open() {
		p.note("no installed skill matches the task")
	}
	out.planInfo = pi
	if err := o.emit(out); err != nil {
		return err
	}
	p.ev.summary()
	return nil
}

// setBody sets the body of e to body, followed with --with-references by the skill's
// references, and cuts it to --max-chars.
func (p *promptRun) setBody(e *promptEntry, body []byte, refs func() ([]catalog.Reference, error)) error {
	body, err := withReferences(body, p.o.withRefs, refs)
	if err != nil {
		return err
	}
	out, total, cut := catalog.TruncateSkill(e.Name, body, p.o.maxChars)
	e.Body, e.Truncated = string(out), cut
	if cut {
		p.ev.emit(truncatedEvent{Type: "skill_truncated", Name: e.Name, Chars: total, MaxChars: p.o.maxChars})
	}
	return nil
}

// withReferences appends to content, when on, the references refs returns.
func withReferences(content []byte, on bool, refs func() ([]catalog.Reference, error)) ([]byte, error) {
	if !on {
		return content, nil
	}
	list, err := refs()
	if err != nil {
		return nil, err
	}
	return catalog.AppendReferences(content, list), nil
}

// runListInstalled lists the skills installed for the agents of application project p, as
// read finds them there, after a note on stderr saying so.
func runListInstalled(a *app, p *agentsync.Project) error {
	in, err := (&installedFlags{}).load(a.repo)
	if err != nil {
		return err
	}
	from := "the skill repository it names"
	if p.Repository != "" {
		from = p.Repository
	}
	fmt.Fprintf(a.Err, "%s is an application project (its skills come from %s): listing the skills installed for agents, here and in the home folder; `skillgit sync --status` compares the project's with the lock\n",
		sanitize(p.Dir), sanitize(from))
	a.warnInstalled(toShadowedJSON(in.Shadowed), in.Failures)
	out := listJSON{Skills: make([]listEntry, 0, len(in.Skills))}
	skills := make([]*catalog.Skill, 0, len(in.Skills))
	for _, is := range in.Skills {
		out.Skills = append(out.Skills, listEntry{Name: is.Skill.Name, Description: is.Skill.Description, Path: is.Dir, Scope: is.Scope})
		skills = append(skills, is.Skill)
	}
	return a.printResult(out, func(w io.Writer) error { return printList(w, skills) })
}

func runReadInstalled(o *readOptions) error {
	a, names := o.app, o.names
	in, err := o.installed.load(a.repo)
	if err != nil {
		return err
	}
	out := readJSON{Skills: []readEntry{}}
	for _, n := range names {
		e, err := readInstalledOne(in, n, o.withRefs)
		if err != nil {
			return err
		}
		out.Skills = append(out.Skills, e)
	}
	for _, s := range toShadowedJSON(in.Shadowed) {
		for _, e := range out.Skills {
			if e.Name == s.Name {
				out.Shadowed = append(out.Shadowed, s)
				a.warn("%s", sanitize(shadowWarning(s)))
			}
		}
	}
	return a.printResult(out, func(w io.Writer) error { return printRead(w, out.Skills) })
}

// readInstalledOne reads one installed skill; a name that failed to load says why.
func readInstalledOne(in *published.Installed, name string, refs bool) (readEntry, error) {
	is, err := in.Find(name)
	if err != nil {
		for _, f := range in.Failures {
			if f.Name == name {
				return readEntry{}, fmt.Errorf("%s: skill cannot be loaded: %s", name, f.Reason())
			}
		}
		return readEntry{}, err
	}
	data, err := is.Content()
	if err != nil {
		return readEntry{}, err
	}
	data, err = withReferences(data, refs, is.References)
	if err != nil {
		return readEntry{}, err
	}
	return readEntry{Name: is.Skill.Name, BaseDir: is.Dir, Content: string(data), Scope: is.Scope}, nil
}
