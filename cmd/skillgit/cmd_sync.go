package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/progress"
	"github.com/skillgit/skillgit/lifecycle/agentsync"
	"github.com/skillgit/skillgit/targetdir"
)

type syncOptions struct {
	app         *app
	targets     []string
	dirs        []string
	global      bool
	channel     string
	copy        bool
	symlink     bool
	dryRun      bool
	force       bool
	listTargets bool
	watch       bool
	remote      string
	interval    time.Duration
	drift       driftOptions
	project     string
	offline     bool
	lock        lockOptions
	gitignore   bool
}

type syncJSON struct {
	Project      string           `json:"project,omitempty"`
	Actions      []syncActionJSON `json:"actions"`
	Skipped      []syncSkipJSON   `json:"skipped"`
	Instructions []string         `json:"instructions,omitempty"`
	Lock         *lockJSON        `json:"lock,omitempty"`
	Unignored    *unignoredJSON   `json:"unignored,omitempty"`
	// Differences are what --frozen found different from the lock once it was done.
	Differences []verifyProblemJSON `json:"differences,omitempty"`
}

type syncActionJSON struct {
	Skill  string `json:"skill"`
	Target string `json:"target"`
	Path   string `json:"path"`
	Action string `json:"action"`
	Reason string `json:"reason,omitempty"`
}

func newSyncCmd(a *app) *cobra.Command {
	o := &syncOptions{app: a}
	c := &cobra.Command{
		Use:   "sync [--target AGENT]... [--dir DIR]... [--project DIR] [--global] [--channel main|canary] [--offline] [--copy|--symlink] [--dry-run] [--force] [--watch [--remote R]] [--update [SKILL]...|--frozen|--check] [--gitignore]",
		Short: "Install the published skills into the folders coding agents read",
		Long: `Install the published tree of a channel into each target: an agent's project folder
(or, with --global, its global folder) or a folder given with --dir.

Run in an application project, sync reads .skillgit-sync.yaml, found at the project's top
(at or above the current folder, up to the folder that holds .git):
  repository: ../skills         # a path relative to the file, or a git URL
  branch: release               # optional: the repository's publish branch (see below)
  channel: main                 # optional: main or canary (default: the repository's sync.channel)
  agents: [claude-code, codex]  # required unless --target is given
  profile: backend              # optional: only this profile's skills
  skills: [pdf, docx]           # optional: only these skills (not with profile)
and installs into the agents' folders of that project. A repository named by URL is read
from a clone cached under the user's cache folder (skillgit/repos), fetched on every sync;
--offline uses the cached clone as it is. Syncs of one URL take turns on its clone: one
fetches while the others wait. The publish branch is branch:, else the one the lock
records, else for a URL the one the repository's HEAD names (never main first; with no
HEAD, the one branch whose configuration names itself), else for a path the repository's own. Run in the skill repository, --project DIR
installs into the project at DIR, reading its .skillgit-sync.yaml when there is one
(--target overrides its agents). There, with neither --target nor --dir, the targets are
sync.targets in .skillgit.yaml, for use with --project or --global: sync never writes into
the skill repository's own tree, nor into the skills folder of any skillgit repository.

Each skill is replaced in one step; only changed skills are written; skills skillgit
installed that are no longer published, or no longer selected, are removed; a skill
skillgit did not install, or one edited in the target, is left alone (--force overwrites an
edited one). A manifest, .skillgit-manifest.json, records what skillgit owns in a target.
One sync at a time writes a target: it holds .skillgit-target.lock beside the manifest, and
another sync waits a few seconds for it, then fails; the lock of a process that has ended
is taken over. A skill that cannot be read from git (a missing or corrupt object) is
skipped and stays installed (see below); run git fsck. The root of the file system and an
empty --dir are refused as targets, and so is a folder of the application project that is,
or lies below, a symbolic link leading out of the project.
--symlink links each skill to a stable copy in the git folder (<gitdir>/skillgit/sync).
An agent that reads several of the chosen folders gets each skill once.
--list-targets prints the agent table.

` + progressHelp("a sync", "installing skills") + `

In an application project, sync writes .skillgit-sync.lock beside the sync file, to commit
with the project: the skill repository, its publish branch, the channel and its commit, the targets, and per
skill its tree id (and its folder, when in a category folder), the channel commit it was taken from, the publish that last changed it
and its approvers. Same input, same bytes. Once the lock exists, sync installs exactly what
it pins (fetching a repository named by URL when needed) and never moves it: a skill
published or rolled back since does not reach the project. When the sync file no longer
matches the lock (repository, branch, channel, agents, selection), sync says so and installs
nothing. --dry-run, --dir, --target, --channel and --global write no lock and ignore it.
--update [SKILL]... moves the lock to the channel's tip, for every skill or only those
named (the others stay pinned), prints each skill added, changed or removed with its risk,
approvers and publish commit, installs and writes the lock; with --dry-run it only prints.
A lock that cannot be read is refused by every sync, --update too, and left as it is:
restore it from git, or delete it and run --update to lock the channel's tip anew.
--frozen (for CI) installs from the lock and fails when the lock is missing, names a commit
or tree the repository does not have, or does not match the sync file; it never writes it.
Once installed, it fails (exit 1) on anything --verify reports, listing it: a skill edited
in the target, which it leaves alone (--force puts the locked version back), or an entry
the lock does not list (--json: "differences", as --verify's "problems").
--check (for update bots) lists the skills whose channel version is ahead of the lock and
writes nothing: exit 0 when the lock is current, 5 when there are updates.
--watch (in the skill repository) keeps following the channel's branch (or, with --remote,
that remote's) and syncs again after every publish or rollback, until interrupted (SIGINT
or SIGTERM).`,
		Args: lockArgs(&o.lock),
		RunE: func(c *cobra.Command, args []string) error { return runSync(o) },
	}
	f := c.Flags()
	f.StringArrayVar(&o.targets, "target", nil, "install for agent `AGENT` (repeatable)")
	f.StringArrayVar(&o.dirs, "dir", nil, "install into folder `DIR` (repeatable)")
	f.BoolVar(&o.global, "global", false, "use the agents' global folders instead of the project's")
	f.StringVar(&o.project, "project", "", "install into the application project `DIR` (run in the skill repository)")
	f.BoolVar(&o.offline, "offline", false, "read a skill repository named by URL from its cached clone, without fetching")
	f.StringVar(&o.channel, "channel", "", "channel to install: main or canary (default: sync.channel)")
	f.BoolVar(&o.copy, "copy", false, "copy each skill (the default)")
	f.BoolVar(&o.symlink, "symlink", false, "link each skill to a stable copy in the git folder")
	f.BoolVar(&o.dryRun, "dry-run", false, "print what would change and change nothing")
	f.BoolVar(&o.force, "force", false, "overwrite or remove installed skills edited in the target")
	f.BoolVar(&o.listTargets, "list-targets", false, "print the agent table and exit")
	f.BoolVar(&o.watch, "watch", false, "keep syncing after every publish or rollback until interrupted")
	f.StringVar(&o.remote, "remote", "", "with --watch, follow the publish branch of `REMOTE`")
	f.DurationVar(&o.interval, "interval", 0, "with --watch, how often to look for a new tip (default 1s)")
	exclusiveFlags(c, "a skill is either copied or linked to a copy in the git folder", "copy", "symlink")
	addLockFlags(c, &o.lock)
	addDriftFlags(c, &o.drift)
	addGitignoreFlag(c, &o.gitignore)
	o.addVerifyFlag(c)
	a.addJSON(c)
	return c
}

func runSync(o *syncOptions) error {
	if o.listTargets {
		return o.printTargets()
	}
	if o.channel != "" && o.channel != "main" && o.channel != "canary" {
		return usageError{fmt.Errorf("--channel %q: use main or canary", o.channel)}
	}
	if done, err := o.runDrift(); done {
		return err
	}
	if err := o.checkLockUse(); err != nil {
		return err
	}
	if o.watch {
		return o.watchSync()
	}
	if o.remote != "" || o.interval != 0 {
		return usageError{errors.New("--remote and --interval go with --watch")}
	}
	return o.syncOnce(gitstore.ZeroHash)
}

// syncOnce syncs the channel, or commit when it is not zero, and prints what changed.
func (o *syncOptions) syncOnce(commit gitstore.Hash) error {
	a := o.app
	var bar *progress.Counter
	if !o.dryRun {
		bar = a.batchProgress("installing skills")
	}
	rep, err := agentsync.Run(agentsync.Request{
		Dir: a.repo, Project: o.project, Offline: o.offline, Agents: o.targets, Dirs: o.dirs, Global: o.global, Channel: o.channel,
		Symlink: o.symlink, DryRun: o.dryRun, Force: o.force, Getenv: getenv, Commit: commit,
		AgentsMD: o.drift.agentsMD, Lock: o.lock.mode(), Update: o.lock.skills, Context: a.ctx, Gitignore: o.gitignore,
		Step: bar.Update,
	})
	bar.Done()
	if rep == nil {
		return err
	}
	for _, w := range rep.Warnings {
		a.warn("%s", w)
	}
	if !agentsync.IsPartial(err) {
		return err
	}
	if o.lock.check && rep.Lock != nil {
		return o.syncCheck(rep)
	}
	var out syncJSON
	if a.json {
		out = syncJSON{Project: rep.Project, Actions: make([]syncActionJSON, 0, len(rep.Actions)), Skipped: skippedJSON(rep), Instructions: rep.Instructions, Lock: lockOut(rep.Lock),
			Unignored: toUnignoredJSON(rep.Unignored)}
		if rep.Differences != nil {
			out.Differences = problemsJSON(rep.Differences.Problems)
		}
		for _, it := range rep.Actions {
			out.Actions = append(out.Actions, syncActionJSON{Skill: it.Skill, Target: it.Target, Path: it.Path, Action: string(it.Action), Reason: it.Reason})
		}
	}
	if perr := a.printResult(out, func(w io.Writer) error { return printSync(w, rep, o.dryRun) }); perr != nil {
		return perr
	}
	o.hintUnignored(rep.Unignored)
	return o.syncOutcome(rep)
}

// printSync prints every change, then one summary line per target.
func printSync(w io.Writer, rep *agentsync.Report, dryRun bool) error {
	printLockChanges(w, rep.Lock, map[bool]string{true: "would lock ", false: "lock "}[dryRun])
	for _, it := range rep.Actions {
		switch it.Action {
		case targetdir.ActionKeep:
		case targetdir.ActionConflict, targetdir.ActionEdited, targetdir.ActionSkip:
			fmt.Fprintf(w, "%s %s: %s: %s\n", it.Action, it.Skill, it.Path, it.Reason)
		default:
			fmt.Fprintf(w, "%s %s -> %s\n", verb(it.Action, dryRun), it.Skill, it.Path)
		}
	}
	for _, t := range rep.Targets {
		counts := map[targetdir.Action]int{}
		for _, it := range rep.Actions {
			if it.Target == t.Label {
				counts[it.Action]++
			}
		}
		fmt.Fprintf(w, "%s (%s): %d installed, %d updated, %d removed, %d unchanged, %d edited, %d skipped, %s\n", t.Dir, t.Label,
			counts[targetdir.ActionInstall], counts[targetdir.ActionUpdate], counts[targetdir.ActionRemove], counts[targetdir.ActionKeep],
			counts[targetdir.ActionEdited], counts[targetdir.ActionSkip], countOf(counts[targetdir.ActionConflict], "conflict", "conflicts"))
	}
	for _, f := range rep.Instructions {
		fmt.Fprintf(w, "%s the skills block in %s\n", verb("keep", dryRun), f)
	}
	if rep.Differences != nil {
		printProblems(w, rep.Differences.Problems)
	}
	printLockEnd(w, rep.Lock)
	printGitignored(w, rep.Unignored)
	if dryRun {
		fmt.Fprintln(w, "dry run: nothing was changed")
	}
	return nil
}

func verb(a targetdir.Action, dryRun bool) string {
	if dryRun {
		return "would " + string(a)
	}
	return string(a)
}

type agentsJSON struct {
	Agents []agentJSON `json:"agents"`
}

type agentJSON struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Project     string   `json:"project"`
	Global      string   `json:"global"`
	AlsoProject []string `json:"also_project"`
	AlsoGlobal  []string `json:"also_global"`
}

// printTargets prints the agent table, for --list-targets.
func (o *syncOptions) printTargets() error {
	a := o.app
	table, err := agentsync.Agents(a.repo)
	if err != nil {
		return err
	}
	out := agentsJSON{Agents: []agentJSON{}}
	for _, ag := range table {
		out.Agents = append(out.Agents, agentJSON{ID: ag.ID, Name: ag.Name, Project: ag.Project, Global: ag.Global,
			AlsoProject: orEmpty(ag.AlsoProject), AlsoGlobal: orEmpty(ag.AlsoGlobal)})
	}
	return a.printResult(out, func(w io.Writer) error {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "AGENT\tPROJECT\tGLOBAL\tALSO READS")
		for _, ag := range table {
			also := strings.Join(append(append([]string{}, ag.AlsoProject...), ag.AlsoGlobal...), " ")
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", ag.ID, ag.Project, dash(ag.Global), dash(also))
		}
		return tw.Flush()
	})
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
