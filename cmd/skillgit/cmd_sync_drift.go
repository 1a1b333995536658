package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle/agentsync"
	"github.com/skillgit/skillgit/targetdir"
)

// driftOptions are the flags of sync that look at what the targets hold.
type driftOptions struct {
	status       bool
	proposeEdits bool
	message      string
	author       string
	agentsMD     []string
}

const syncDriftHelp = `
--status reports, per target, each skill as installed (as published), edited (changed
in the target since skillgit installed it), missing (in the manifest, folder gone),
foreign (a skill folder skillgit did not install) or outdated (another version is
published, or none). It writes nothing and exits 0. With --json:
  {"channel": "main", "targets": [{"target": LABEL, "dir": DIR, "skills": [{"name": N,
  "path": P, "state": S, "outdated": B, "installed": TREE, "published": TREE}]}]}
An edited skill whose published version changed too is "edited" with "outdated": true.
A plain sync reports an edited skill as "edited", leaves it alone and counts it apart.

--propose-edits turns every edited skill into a candidate built on the published
version it was installed from, so that publishing it merges the edit with what was
published since, never reverting it; a candidate of an outdated skill must be
rebased first ('skillgit rebase ID'), which reports an edit that collides with a
newer publish as a conflict. Each candidate is audited and handled like any proposal
(-m explains it, --author says who). Nothing is installed. In an application project
whose repository: is a URL, a candidate made in the cached clone would reach no one: the
edited skills are listed as not proposed (exit 1), with the command to run in a clone of
the repository. There, --project DIR accepts the sync file when one of the clone's
remotes names the same repository, however spelled: https://host/team/skills,
ssh://git@host/team/skills.git and git@host:team/skills.git are one.

A skill that the audit refuses (risk at or above fail_on) or that git cannot read is
skipped with its reason: a copy already installed stays, with its manifest entry, and
the other skills are installed. Exit codes when not everything was done: 1 if a skill
could not be read, else 3 if one was refused, else 4 if one was left alone as a conflict.
With --json the skipped skills are in "skipped": [{"skill", "path", "reason", "refused"}].

--agents-md FILE (repeatable) keeps, in an agent instructions file such as AGENTS.md or
CLAUDE.md, the block between <!-- SKILLS_TABLE_START --> and <!-- SKILLS_TABLE_END -->
listing the skills the sync leaves installed (name, description, and the location of
the SKILL.md relative to FILE's folder). A relative FILE starts at the project's top.
Text outside the markers is never changed; a missing file is created; a symbolic link,
a file over 1 MiB or broken markers are refused. With --dry-run nothing is written.`

// addDriftFlags declares the drift flags of sync.
func addDriftFlags(c *cobra.Command, o *driftOptions) {
	c.Long += "\n" + syncDriftHelp
	f := c.Flags()
	f.BoolVar(&o.status, "status", false, "report what each target holds against the manifest and the channel; write nothing")
	f.BoolVar(&o.proposeEdits, "propose-edits", false, "propose every skill edited in the targets, built on the version installed")
	f.StringVarP(&o.message, "message", "m", "", "with --propose-edits, explain the change in `MSG`")
	f.StringVar(&o.author, "author", "", "with --propose-edits, "+authorHelp)
	f.StringArrayVar(&o.agentsMD, "agents-md", nil, "keep the skills block of agent instructions file `FILE` (repeatable)")
	exclusiveFlags(c, "--status reports, --propose-edits proposes what was edited and --watch keeps installing", "status", "propose-edits", "watch")
}

// runDrift runs --status or --propose-edits; done says whether one of them was asked for.
func (o *syncOptions) runDrift() (done bool, err error) {
	a := o.app
	d := o.drift
	if !d.proposeEdits && (d.message != "" || d.author != "") {
		return true, usageError{fmt.Errorf("-m and --author go with --propose-edits")}
	}
	if (d.status || d.proposeEdits) && (len(d.agentsMD) > 0 || o.force || o.symlink) {
		return true, usageError{fmt.Errorf("--status and --propose-edits take no --agents-md, --force or --symlink: they install nothing")}
	}
	req := agentsync.Request{Dir: a.repo, Project: o.project, Offline: o.offline, Agents: o.targets, Dirs: o.dirs, Global: o.global, Channel: o.channel, Getenv: getenv}
	switch {
	case d.status:
		return true, o.syncStatus(req)
	case d.proposeEdits:
		return true, o.proposeEdits(req, d)
	}
	return false, nil
}

type syncSkipJSON struct {
	Skill   string `json:"skill"`
	Path    string `json:"path"`
	Reason  string `json:"reason"`
	Refused bool   `json:"refused"`
}

// skippedJSON lists the skipped skills of a sync report.
func skippedJSON(rep *agentsync.Report) []syncSkipJSON {
	out := []syncSkipJSON{}
	for _, s := range rep.Skipped {
		out = append(out, syncSkipJSON{Skill: s.Skill, Path: s.Dir, Reason: s.Reason, Refused: s.Refused})
	}
	return out
}

// syncOutcome says on stderr what a sync left undone, and picks the exit code: 1 for a skill
// git could not read, else 3 for one refused, else 4 for a conflict.
func (o *syncOptions) syncOutcome(rep *agentsync.Report) error {
	a := o.app
	code := ExitOK
	if rep.Conflicts > 0 {
		a.warn("%s left alone: see the conflicts above; --force overwrites skills edited in the target", countOf(rep.Conflicts, "skill", "skills"))
		code = ExitConflict
	}
	for _, s := range rep.Skipped {
		a.warn("skipped %s: %s", sanitize(s.Skill), sanitize(s.Reason))
		switch {
		case !s.Refused:
			code = ExitError
		case code != ExitError:
			code = ExitRefused
		}
	}
	if d := rep.Differences; d != nil && len(d.Problems) > 0 {
		a.warn("--frozen: the targets differ from %s in %s, listed above; %s", sanitize(d.Lock), countOf(len(d.Problems), "place", "places"), verifyRepair)
		code = ExitError
	}
	if code != ExitOK {
		return quietExit{code}
	}
	return nil
}

type statusJSON struct {
	Channel string             `json:"channel"`
	Targets []statusTargetJSON `json:"targets"`
}

type statusTargetJSON struct {
	Target string            `json:"target"`
	Dir    string            `json:"dir"`
	Skills []statusSkillJSON `json:"skills"`
}

type statusSkillJSON struct {
	Name      string `json:"name"`
	Path      string `json:"path"`
	State     string `json:"state"`
	Outdated  bool   `json:"outdated"`
	Installed string `json:"installed"`
	Published string `json:"published"`
}

// syncStatus prints what each target holds.
func (o *syncOptions) syncStatus(req agentsync.Request) error {
	a := o.app
	rep, err := agentsync.Status(req)
	if err != nil {
		return err
	}
	for _, w := range rep.Warnings {
		a.warn("%s", w)
	}
	out := statusJSON{Channel: rep.Channel, Targets: []statusTargetJSON{}}
	for _, t := range rep.Targets {
		tj := statusTargetJSON{Target: t.Label, Dir: t.Dir, Skills: []statusSkillJSON{}}
		for _, s := range t.Skills {
			tj.Skills = append(tj.Skills, statusSkillJSON{Name: s.Name, Path: s.Path, State: string(s.State),
				Outdated: s.Outdated, Installed: s.Installed, Published: s.Published})
		}
		out.Targets = append(out.Targets, tj)
	}
	return a.printResult(out, func(w io.Writer) error { return printStatus(w, rep) })
}

// printStatus prints the skills of each target under a line naming it.
func printStatus(w io.Writer, rep *agentsync.StatusReport) error {
	for _, t := range rep.Targets {
		fmt.Fprintf(w, "%s (%s), channel %s:\n", t.Dir, t.Label, rep.Channel)
		if len(t.Skills) == 0 {
			fmt.Fprintln(w, "  no skills")
		}
		for _, s := range t.Skills {
			note := ""
			if s.Outdated && s.State == targetdir.StateEdited {
				note = " (outdated too)"
			}
			fmt.Fprintf(w, "  %-9s %s%s\n", s.State, sanitize(s.Name), note)
		}
	}
	return nil
}

type proposeEditsJSON struct {
	Candidates []proposeEditJSON `json:"candidates"`
}

type proposeEditJSON struct {
	Skill    string   `json:"skill"`
	Path     string   `json:"path"`
	ID       string   `json:"id,omitempty"`
	Base     string   `json:"base,omitempty"`
	Risk     string   `json:"risk,omitempty"`
	State    string   `json:"state,omitempty"`
	Rebase   bool     `json:"needs_rebase"`
	Reason   string   `json:"reason,omitempty"`
	Warnings []string `json:"-"`
}

// proposeEdits proposes every edited skill and prints the candidates and what to do next.
func (o *syncOptions) proposeEdits(req agentsync.Request, d driftOptions) error {
	a := o.app
	props, err := agentsync.ProposeEdits(req, act(d.author), d.message)
	if err != nil && len(props) == 0 {
		return err
	}
	out := proposeEditsJSON{Candidates: []proposeEditJSON{}}
	for _, p := range props {
		j := proposeEditJSON{Skill: p.Skill, Path: p.Path, Base: p.Base, Rebase: p.Outdated, Reason: p.Reason}
		if p.Result != nil {
			j.ID, j.Risk, j.State = p.Result.ID, p.Result.Risk, string(p.Result.State)
			for _, w := range p.Result.Warnings {
				a.warn("%s", w)
			}
		}
		out.Candidates = append(out.Candidates, j)
	}
	if perr := a.printResult(out, func(w io.Writer) error { return printProposals(w, out.Candidates) }); perr != nil {
		return perr
	}
	if err != nil && a.json {
		// stdout holds one JSON document, whose candidates carry their reasons.
		fmt.Fprintf(a.Err, "skillgit: %s\n", err)
		return quietExit{exitCode(err)}
	}
	return err
}

func printProposals(w io.Writer, cands []proposeEditJSON) error {
	if len(cands) == 0 {
		fmt.Fprintln(w, "no edited skills in the targets")
	}
	for _, c := range cands {
		switch {
		case c.ID == "":
			fmt.Fprintf(w, "not proposed %s: %s\n", sanitize(c.Skill), sanitize(c.Reason))
		case c.Rebase:
			fmt.Fprintf(w, "proposed %s as %s (risk %s), built on the version installed; a newer version is published: next: skillgit rebase %s, then skillgit review %s\n",
				sanitize(c.Skill), c.ID, c.Risk, c.ID, c.ID)
		default:
			fmt.Fprintf(w, "proposed %s as %s (risk %s); next: skillgit review %s\n", sanitize(c.Skill), c.ID, c.Risk, c.ID)
		}
	}
	return nil
}
