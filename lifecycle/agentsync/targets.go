package agentsync

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// Target is one folder a sync writes into.
type Target struct {
	// Label names the target in reports: the agent ids it serves, or the folder as given.
	Label string
	// Dir is the folder, absolute.
	Dir string
}

// agentTarget is one agent a sync serves, with the folders it reads.
type agentTarget struct {
	id      string
	install string
	reads   []string
}

// Agents returns the agent table with the overrides of the skill repository sync would read
// from dir (the one at or above it, or the one its project's sync file names, if at hand
// without fetching), or the built-in table.
func Agents(dir string) ([]catalog.Agent, error) {
	r, err := openRepo(Request{Dir: dir, Offline: true})
	if err != nil {
		return catalog.Agents(nil)
	}
	defer r.Close()
	return catalog.Agents(r.Config().Agents)
}

// targets resolves the agents and folders of a request, or of sync.targets, to the folders
// to write. A folder an agent reads is written only once, and no folder is chosen that an
// agent already served reads too, where that can be avoided; the warnings name every agent
// that still reads two chosen folders.
func (r *repo) targets(req Request) ([]Target, []string, error) {
	agents, dirs := req.Agents, req.Dirs
	if len(agents) == 0 && r.sync != nil {
		agents = r.sync.Agents
	}
	base := r.dir
	if len(agents) == 0 && len(dirs) == 0 && r.appMode {
		return nil, nil, fmt.Errorf("%s: agents: is missing; list the agents to install for, such as agents: [claude-code], or pass --target AGENT", r.syncPath)
	}
	if len(agents) == 0 && len(dirs) == 0 {
		base = r.projectRoot()
		for _, t := range r.Config().Sync.Targets {
			if t.Agent != "" {
				agents = append(agents, t.Agent)
			} else {
				dirs = append(dirs, t.Dir)
			}
		}
	}
	if len(agents) == 0 && len(dirs) == 0 {
		return nil, nil, fmt.Errorf("no sync targets: pass --target AGENT or --dir DIR, or list them under sync.targets in %s; `skillgit sync --list-targets` shows the agents", policy.ConfigFile)
	}
	served, err := r.agentTargets(agents, req)
	if err != nil {
		return nil, nil, err
	}
	var chosen []Target
	for _, d := range dirs {
		abs, err := absFolder(d, base, req.Getenv)
		if err != nil {
			return nil, nil, err
		}
		if err := r.checkTargetDir(d, abs); err != nil {
			return nil, nil, err
		}
		chosen = appendTarget(chosen, Target{Label: d, Dir: abs})
	}
	chosen = cover(chosen, served)
	for _, t := range chosen {
		if err := r.checkInstallFolder(t); err != nil {
			return nil, nil, err
		}
	}
	return chosen, doubleReads(chosen, served), nil
}

// projectRoot is the folder project targets are relative to: the application project, or,
// without one, where skillgit runs (a sync.targets folder there is refused as lying in the
// skill repository).
func (r *repo) projectRoot() string {
	if r.project != "" {
		return r.project
	}
	if wt := r.Git().WorktreeDir(); wt != "" {
		return wt
	}
	return r.Dir()
}

// agentTargets looks agents up in the table and expands their folders.
func (r *repo) agentTargets(ids []string, req Request) ([]agentTarget, error) {
	table, err := catalog.Agents(r.Config().Agents)
	if err != nil {
		return nil, err
	}
	var out []agentTarget
	for _, id := range ids {
		a, ok := catalog.FindAgent(table, id)
		if !ok {
			return nil, fmt.Errorf("unknown agent %q; `skillgit sync --list-targets` lists the agents, and agents: in %s adds one", id, policy.ConfigFile)
		}
		t, err := r.expandAgent(a, req)
		if err != nil {
			return nil, err
		}
		if !slices.ContainsFunc(out, func(o agentTarget) bool { return o.id == t.id }) {
			out = append(out, t)
		}
	}
	return out, nil
}

// expandAgent turns an agent's project or global folders into absolute paths.
func (r *repo) expandAgent(a catalog.Agent, req Request) (agentTarget, error) {
	t := agentTarget{id: a.ID}
	if !req.Global {
		if a.Project == "" {
			return t, fmt.Errorf("agent %s has no project folder; pass --global, or --dir DIR", a.ID)
		}
		if r.project == "" {
			return t, ownTreeRefusal("agent "+a.ID+" installs into the project's folders", repoLabel(r))
		}
		for _, f := range a.ProjectFolders() {
			t.reads = append(t.reads, filepath.Join(r.projectRoot(), filepath.FromSlash(f)))
		}
		t.install = t.reads[0]
		return t, nil
	}
	if a.Global == "" {
		return t, fmt.Errorf("agent %s has no global folder (it reads skills only in a project); drop --global, or pass --dir DIR", a.ID)
	}
	for i, f := range a.GlobalFolders() {
		abs, err := catalog.ExpandFolder(f, req.Getenv)
		if err != nil && i == 0 {
			return t, fmt.Errorf("agent %s: %w", a.ID, err)
		}
		if err == nil {
			t.reads = append(t.reads, abs)
		}
	}
	t.install = t.reads[0]
	return t, nil
}

// checkTargetDir refuses a folder that must never receive skills: an empty name, the root
// of the file system, and the repository itself (its working tree's top, its git folder or
// its skills folder), where installing would mix skills into the files skillgit keeps.
func (r *repo) checkTargetDir(given, abs string) error {
	if strings.TrimSpace(given) == "" {
		return fmt.Errorf("--dir is empty; name the folder to install into, such as --dir .claude/skills")
	}
	if filepath.Dir(abs) == abs {
		return fmt.Errorf("--dir %s is the root of the file system; name a folder of its own for the skills, such as %s", given, filepath.Join(abs, "skills"))
	}
	for _, repo := range []string{r.Git().WorktreeDir(), r.Git().CommonDir()} {
		if repo != "" && sameFolder(abs, repo) {
			return fmt.Errorf("--dir %s is the repository itself (%s); name a folder below it, such as %s", given, repo, filepath.Join(repo, ".claude", "skills"))
		}
	}
	if wt := r.Git().WorktreeDir(); wt != "" && sameFolder(abs, filepath.Join(wt, filepath.FromSlash(r.Config().SkillsDir))) {
		return fmt.Errorf("--dir %s is the repository's skills folder, which skillgit keeps in git; name another folder, such as %s", given, filepath.Join(wt, ".claude", "skills"))
	}
	if wt := r.Git().WorktreeDir(); wt != "" && within(abs, wt) {
		return ownTreeRefusal("--dir "+given+" lies in the skill repository", wt)
	}
	return nil
}

// sameFolder reports whether a and b are one folder: the same path once cleaned, or the same
// folder on disk reached through a link.
func sameFolder(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ia, err := os.Stat(a)
	if err != nil {
		return false
	}
	ib, err := os.Stat(b)
	return err == nil && os.SameFile(ia, ib)
}

// absFolder makes a folder given by the user absolute: ~/ is the home folder, and a relative
// path starts at base.
func absFolder(d, base string, getenv func(string) string) (string, error) {
	if d == "~" || strings.HasPrefix(d, "~/") || strings.HasPrefix(d, "${") {
		return catalog.ExpandFolder(d, getenv)
	}
	if !filepath.IsAbs(d) {
		d = filepath.Join(base, d)
	}
	return filepath.Clean(d), nil
}

// cover adds install folders until every agent reads at least one chosen folder, each time
// the folder that serves the most agents not yet served and that no served agent reads.
func cover(chosen []Target, agents []agentTarget) []Target {
	for {
		best, bestN := -1, 0
		for i, a := range agents {
			if served(a, chosen) {
				continue
			}
			n := countServed(a.install, agents, chosen)
			if n > bestN || (n == bestN && best >= 0 && readByServed(a.install, agents, chosen) < readByServed(agents[best].install, agents, chosen)) {
				best, bestN = i, n
			}
		}
		if best < 0 {
			return label(chosen, agents)
		}
		chosen = appendTarget(chosen, Target{Dir: agents[best].install})
	}
}

func served(a agentTarget, chosen []Target) bool {
	return slices.ContainsFunc(chosen, func(t Target) bool { return slices.Contains(a.reads, t.Dir) })
}

// countServed counts the agents not yet served that read folder dir.
func countServed(dir string, agents []agentTarget, chosen []Target) int {
	n := 0
	for _, a := range agents {
		if !served(a, chosen) && slices.Contains(a.reads, dir) {
			n++
		}
	}
	return n
}

// readByServed counts the agents already served that also read dir, who would see twice.
func readByServed(dir string, agents []agentTarget, chosen []Target) int {
	n := 0
	for _, a := range agents {
		if served(a, chosen) && slices.Contains(a.reads, dir) {
			n++
		}
	}
	return n
}

func appendTarget(ts []Target, t Target) []Target {
	if slices.ContainsFunc(ts, func(o Target) bool { return o.Dir == t.Dir }) {
		return ts
	}
	return append(ts, t)
}

// label names each agent folder by the agents that read it.
func label(chosen []Target, agents []agentTarget) []Target {
	for i := range chosen {
		if chosen[i].Label != "" {
			continue
		}
		var ids []string
		for _, a := range agents {
			if slices.Contains(a.reads, chosen[i].Dir) {
				ids = append(ids, a.id)
			}
		}
		chosen[i].Label = strings.Join(ids, ",")
	}
	return chosen
}

// doubleReads warns about every agent that reads more than one chosen folder.
func doubleReads(chosen []Target, agents []agentTarget) []string {
	var warns []string
	for _, a := range agents {
		var in []string
		for _, t := range chosen {
			if slices.Contains(a.reads, t.Dir) {
				in = append(in, t.Dir)
			}
		}
		if len(in) > 1 {
			warns = append(warns, fmt.Sprintf("warning: agent %s reads %s, so it lists every skill %d times; sync to one of them", a.id, strings.Join(in, " and "), len(in)))
		}
	}
	return warns
}
