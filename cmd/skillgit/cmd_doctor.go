package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/doctor"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/agentsync"
)

type doctorOptions struct {
	app     *app
	fix     bool
	targets []string
	dirs    []string
	global  bool
	project string
}

type doctorJSON struct {
	Findings []doctorFindingJSON `json:"findings"`
	Fixed    int                 `json:"fixed"`
	Left     int                 `json:"left"`
}

type doctorFindingJSON struct {
	Kind   string `json:"kind"`
	Path   string `json:"path"`
	Detail string `json:"detail"`
	Fixed  bool   `json:"fixed"`
	Left   string `json:"left"`
}

func newDoctorCmd(a *app) *cobra.Command {
	o := &doctorOptions{app: a}
	c := &cobra.Command{
		Use:   "doctor [--fix] [--target AGENT]... [--dir DIR]... [--project DIR] [--global]",
		Short: "Find and repair what interrupted commands left behind",
		Long: `List what an interrupted git or skillgit command (Ctrl-C, a closed terminal, kill -9,
a crash) can leave behind, and with --fix repair what is safe to repair:

  lock          a lock file of the repository (a ref's, index.lock, HEAD.lock,
                packed-refs.lock, config.lock, objects/skillgit-pack.lock). One whose
                recorded skillgit owner has ended is removed. One skillgit did not record
                may be git's own: it is removed only when no process of this host has it
                open and no git process runs in the repository (as /proc shows; elsewhere
                it is left), and it is older than 5 seconds. A lock whose owner still
                runs is left alone.
  lock-record   an owner record (in <git dir>/skillgit/locks) whose lock is gone, or
                one never finished; removed.
  sync-lock     a target folder's .skillgit-target.lock whose sync process has ended; removed.
  sync-leftover a temporary entry an interrupted sync left in a target folder
                (.skillgit-tmp-*, .skillgit-old-*, a manifest draft); removed, without
                following links, while holding the folder's lock. Also a temporary copy
                in the link store of --symlink syncs (<git dir>/skillgit/sync), removed
                once it is older than 10 minutes.
  manifest      a skill whose manifest entry disagrees with its folder: an install that
                did not finish, a folder gone, a skill edited in the target, or a manifest
                that cannot be read. Never changed: ` + "`skillgit sync`" + ` repairs what is
                skillgit's, and an edit is yours (sync --propose-edits, or sync --force).
  object-temp   a temporary file of a git object writer killed while it wrote
                (objects/*/tmp_obj_*, objects/pack/tmp_pack_*, objects/pack/tmp_idx_*);
                removed when no process of this host has it open, no git process runs in
                the repository, and it is older than an hour.
  ref           HEAD, a loose ref or a packed-refs line that does not parse, or a ref file
                with an invalid name. Never changed; each says how to repair it.
  project       in an application project, a .skillgit-sync.yaml or .skillgit-sync.lock
                that cannot be read, a missing lock, or a lock of another repository.
                Never changed.
  installed     in an application project, an entry of a target of the lock that differs
                from it, as sync --verify reports it (the manifest finding of the same
                entry, if any, stands for it). Never changed: sync installs the lock.

The target folders are those sync would write: in an application project, the agents'
folders its .skillgit-sync.yaml names; in the skill repository, sync.targets (with
--project or --global for agents' folders); or those named with --target, --dir,
--project and --global, as for sync. Nothing is fetched. A folder sync is writing is
reported as in use, and nothing else in it is looked at. In an application project (found
at or above the current folder, or named with --project), the project and the targets of
its lock are checked even when the skill repository its sync file names cannot be opened,
which is said on stderr.

Each finding says what is known and, when it is left, why and what to do. Exit 0 when
nothing was found or everything found was fixed, 1 when something is left. With --json:
  {"findings": [{"kind": K, "path": P, "detail": TEXT, "fixed": B, "left": WHY}],
  "fixed": N, "left": N}
"left" is empty for a finding fixed.`,
		Args: exactArgs(0),
		RunE: func(c *cobra.Command, args []string) error { return runDoctor(o) },
	}
	f := c.Flags()
	f.BoolVar(&o.fix, "fix", false, "repair what is safe to repair, and say what is left alone")
	f.StringArrayVar(&o.targets, "target", nil, "check the folders of agent `AGENT` (repeatable)")
	f.StringArrayVar(&o.dirs, "dir", nil, "check target folder `DIR` (repeatable)")
	f.StringVar(&o.project, "project", "", "check the targets of the application project `DIR` (run in the skill repository, or in DIR itself)")
	f.BoolVar(&o.global, "global", false, "check the agents' global folders instead of the project's")
	a.addJSON(c)
	return c
}

// runDoctor checks, repairs with --fix, prints the findings, and exits 1 when any is left.
func runDoctor(o *doctorOptions) error {
	a := o.app
	proj := o.appProject()
	repoDir, targets, err := o.scope(proj != "")
	if err != nil {
		return err
	}
	var health *agentsync.ProjectHealth
	if proj != "" {
		if health, err = agentsync.CheckProject(proj); err != nil {
			return err
		}
		targets = appendNew(targets, health.Targets...)
	}
	g, err := gitstore.Open(repoDir)
	switch {
	case err != nil && proj != "" && errors.Is(err, gitstore.ErrNotRepository):
		g = nil // an application project need not be a git repository
	case err != nil:
		return err
	default:
		defer g.Close()
	}
	rep, err := doctor.Run(g, doctor.Options{Fix: o.fix, Targets: targets})
	if err != nil {
		return err
	}
	if health != nil {
		rep.Findings = append(projectFindings(health, rep.Findings), rep.Findings...)
	}
	out := doctorJSON{Findings: []doctorFindingJSON{}, Fixed: rep.Fixed(), Left: rep.Left()}
	for _, f := range rep.Findings {
		out.Findings = append(out.Findings, doctorFindingJSON{Kind: f.Kind, Path: f.Path, Detail: f.Detail, Fixed: f.Fixed, Left: f.Left})
	}
	if err := a.printResult(out, func(w io.Writer) error { return printDoctor(w, rep) }); err != nil {
		return err
	}
	if rep.Left() > 0 {
		return quietExit{ExitError}
	}
	return nil
}

// appProject is the top folder of the application project doctor checks: --project DIR when
// it holds a sync file, or the project at or above the current folder; empty with --target,
// --dir or --global, or when there is none.
func (o *doctorOptions) appProject() string {
	if len(o.targets) > 0 || len(o.dirs) > 0 || o.global {
		return ""
	}
	if o.project == "" {
		if p := agentsync.FindProject(o.app.repo); p != nil {
			return p.Dir
		}
		return ""
	}
	dir := o.project
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(o.app.repo, dir)
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	if _, err := os.Lstat(filepath.Join(dir, agentsync.SyncFileName)); err != nil {
		return ""
	}
	return dir
}

// projectFindings are the problems of an application project as findings, leaving out a
// target's entry that found already reports (such as a skill edited since it was installed).
func projectFindings(h *agentsync.ProjectHealth, found []doctor.Finding) []doctor.Finding {
	var out []doctor.Finding
	for _, p := range h.Problems {
		kind := doctor.FindingProject
		if p.Installed {
			kind = doctor.FindingInstalled
			if slices.ContainsFunc(found, func(f doctor.Finding) bool { return filepath.Clean(f.Path) == filepath.Clean(p.Path) }) {
				continue
			}
		}
		out = append(out, doctor.Finding{Kind: kind, Path: p.Path, Detail: p.Detail, Left: p.Fix})
	}
	return out
}

// appendNew appends to list each of dirs it does not hold yet.
func appendNew(list []string, dirs ...string) []string {
	for _, d := range dirs {
		if !slices.Contains(list, d) {
			list = append(list, d)
		}
	}
	return list
}

// scope finds the repository and the target folders to check. Without target flags,
// a folder that is no skill repository is checked as a git repository, without targets.
// In an application project, a skill repository that cannot be opened is no error: the
// project is checked (see CheckProject), and the repository left out, with a warning.
func (o *doctorOptions) scope(inProject bool) (string, []string, error) {
	a := o.app
	req := agentsync.Request{Dir: a.repo, Project: o.project, Agents: o.targets, Dirs: o.dirs, Global: o.global, Getenv: getenv}
	named := (o.project != "" || len(o.targets) > 0 || len(o.dirs) > 0 || o.global) && !inProject
	scope, err := agentsync.ResolveDoctorScope(req)
	switch {
	case err != nil && named:
		return "", nil, err
	case err != nil && inProject:
		a.warn("the skill repository is not checked: %s", sanitize(err.Error()))
		return a.repo, nil, nil
	case err != nil:
		if !errors.Is(err, gitstore.ErrNotRepository) && !errors.Is(err, lifecycle.ErrNotInitialized) {
			a.warn("sync targets not checked: %s", sanitize(err.Error()))
		}
		return a.repo, nil, nil
	case scope.Note != "" && named:
		return "", nil, errors.New(scope.Note)
	case scope.Note != "":
		a.warn("sync targets not checked: %s", sanitize(scope.Note))
	}
	var dirs []string
	for _, t := range scope.Targets {
		dirs = append(dirs, t.Dir)
	}
	return scope.Repo, dirs, nil
}

// doctorHeadings group the kinds of findings in the text output, in order.
var doctorHeadings = []struct {
	title string
	kinds []string
}{
	{"application project", []string{doctor.FindingProject, doctor.FindingInstalled}},
	{"locks", []string{doctor.FindingLock, doctor.FindingLockRecord}},
	{"sync targets", []string{doctor.FindingFolderMutex, doctor.FindingSyncLeftover, doctor.FindingManifest}},
	{"objects", []string{doctor.FindingObjectTemp}},
	{"refs", []string{doctor.FindingRef}},
}

// printDoctor prints the findings under a heading per group, then the counts.
func printDoctor(w io.Writer, rep *doctor.Report) error {
	if len(rep.Findings) == 0 {
		fmt.Fprintln(w, "no problems found")
		return nil
	}
	for _, h := range doctorHeadings {
		printed := false
		for _, f := range rep.Findings {
			if !slices.Contains(h.kinds, f.Kind) {
				continue
			}
			if !printed {
				fmt.Fprintf(w, "%s:\n", h.title)
				printed = true
			}
			if f.Fixed {
				fmt.Fprintf(w, "  fixed %s: %s\n", sanitize(f.Path), sanitize(f.Detail))
			} else {
				fmt.Fprintf(w, "  left  %s: %s; %s\n", sanitize(f.Path), sanitize(f.Detail), sanitize(f.Left))
			}
		}
	}
	fmt.Fprintf(w, "%d fixed, %d left\n", rep.Fixed(), rep.Left())
	return nil
}
