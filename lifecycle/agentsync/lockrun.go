package agentsync

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/pathcheck"
	"github.com/skillgit/skillgit/targetdir"
)

// LockMode says how a sync in an application project uses the project's lock file.
type LockMode int

const (
	// LockInstall installs what the lock pins; with no lock yet it is LockUpdate.
	LockInstall LockMode = iota
	// LockUpdate moves the lock to the channel's tip, for every skill or those of
	// Request.Update, installs and writes it.
	LockUpdate
	// LockFrozen installs what the lock pins and fails when there is none, or when it does
	// not match the sync file or the repository.
	LockFrozen
	// LockCheck lists the skills whose channel version is ahead of the lock; it installs
	// and writes nothing.
	LockCheck
)

// LockReport is what a sync did with the project's lock file.
type LockReport struct {
	// File is the lock file's path.
	File string
	// Commit is the channel's commit the lock is at, or would be moved to.
	Commit string
	// Written is set when the lock was written.
	Written bool
	// Changes are the skills the lock moves, or with LockCheck would move, in order of name.
	Changes []LockChange
	// Unverified is set when the sync file names no trust:, so nothing installed was verified.
	Unverified bool
}

// LockChange is one skill a lock update adds, changes or removes.
type LockChange struct {
	// Skill is the skill's name.
	Skill string
	// Change is added, changed or removed.
	Change string
	// Tree is the skill's new tree id; empty when removed.
	Tree string
	// Publish is the commit that last changed the skill on the channel, when found.
	Publish string
	// Risk is the audit risk that commit records.
	Risk string
	// Approvers are the approvers of that commit.
	Approvers []string
	// Keys are the fingerprints of the keys whose approvals the project's trust verified.
	Keys []string
}

// LockFlagsScope says where the flags of a sync about the lock (--update, --frozen, --check)
// work.
const LockFlagsScope = "--update, --frozen and --check work in an application project (one with a " + SyncFileName + ") installing into its agents' folders, not with --dir, --target, --channel or --global"

// lockRun is the lock of a sync in an application project.
type lockRun struct {
	file    string
	mode    LockMode
	old     *Lock
	channel string
	next    *Lock
	rep     *LockReport
	held    map[string]Skip // skills the channel's source, and the trust, leave as they are
}

// usesLock reports whether a request installs what an application project's sync file asks
// into the project's agent folders, where the lock file applies: not with folders, agents or
// a channel given for this run, nor into the global folders.
func (r *repo) usesLock(req Request) bool { return r.appMode && lockApplies(req) }

// lockApplies reports whether a request in an application project installs under its lock:
// it names no folders, agents or channel of its own, nor the global folders.
func lockApplies(req Request) bool {
	return len(req.Dirs) == 0 && len(req.Agents) == 0 && req.Channel == "" && !req.Global && req.Commit.IsZero()
}

// openLock reads the project's lock for a request, and checks that it matches the sync file
// and targets; nil when no lock applies.
func (r *repo) openLock(req Request, targets []Target) (*lockRun, error) {
	if !r.usesLock(req) {
		if req.Lock != LockInstall || len(req.Update) > 0 {
			return nil, errors.New(LockFlagsScope)
		}
		return nil, nil
	}
	lk := &lockRun{file: filepath.Join(r.project, LockFileName), mode: req.Lock, channel: r.channelOf(req)}
	lk.rep = &LockReport{File: lk.file}
	// An unreadable lock is refused by --update too: replacing it would hide what it pinned.
	old, found, err := ReadLock(lk.file)
	if err != nil {
		return nil, err
	}
	lk.old = old
	switch {
	case !found && lk.mode == LockFrozen:
		return nil, fmt.Errorf("%s: missing; --frozen installs only what the lock pins: run `skillgit sync` in the project and commit %s", lk.file, LockFileName)
	case !found && lk.mode == LockInstall:
		lk.mode = LockUpdate
	}
	if found && lk.mode != LockUpdate {
		if diff := r.lockMismatch(old, lk.channel, targets); diff != "" {
			return nil, fmt.Errorf("%s does not match %s: %s; run `skillgit sync --update` to move the lock, and commit it; nothing was installed", lk.file, r.syncPath, diff)
		}
	}
	return lk, nil
}

// channelOf is the channel a request installs: --channel, the sync file's, or sync.channel.
func (r *repo) channelOf(req Request) string {
	channel := req.Channel
	if channel == "" && r.sync != nil {
		channel = r.sync.Channel
	}
	if channel == "" {
		channel = r.Config().Sync.Channel
	}
	return channel
}

// lockMismatch says how the lock disagrees with the sync file and the targets; empty when
// it does not.
func (r *repo) lockMismatch(l *Lock, channel string, targets []Target) string {
	var d []string
	if !SameRepository(l.Repository, r.sync.Repository) {
		d = append(d, fmt.Sprintf("repository %s in the lock, %s in the sync file", l.Repository, r.sync.Repository))
	}
	if l.Branch != "" && l.Branch != r.publishBranch() {
		d = append(d, fmt.Sprintf("publish branch %s in the lock, %s now", l.Branch, r.publishBranch()))
	}
	if l.Channel != channel {
		d = append(d, fmt.Sprintf("channel %s in the lock, %s now", l.Channel, channel))
	}
	if !slices.Equal(l.Targets, r.lockTargets(targets)) {
		d = append(d, fmt.Sprintf("targets %s in the lock, %s now", targetList(l.Targets), targetList(r.lockTargets(targets))))
	}
	if l.Profile != r.sync.Profile || !slices.Equal(l.Select, selection(r.sync)) {
		d = append(d, "the selection of skills (profile:, skills:) changed")
	}
	return strings.Join(d, "; ")
}

// lockTargets are the targets as the lock records them, in order of folder.
func (r *repo) lockTargets(targets []Target) []LockTarget {
	out := make([]LockTarget, 0, len(targets))
	for _, t := range targets {
		rel, err := filepath.Rel(r.project, t.Dir)
		if err != nil {
			rel = t.Dir
		}
		out = append(out, LockTarget{Agent: t.Label, Dir: filepath.ToSlash(rel)})
	}
	slices.SortFunc(out, func(a, b LockTarget) int { return strings.Compare(a.Dir, b.Dir) })
	return out
}

func targetList(ts []LockTarget) string {
	var s []string
	for _, t := range ts {
		s = append(s, t.Agent+":"+t.Dir)
	}
	return "[" + strings.Join(s, " ") + "]"
}

// selection is the sync file's skills: list, sorted, each once.
func selection(sf *SyncFile) []string {
	if len(sf.Skills) == 0 {
		return nil
	}
	s := slices.Clone(sf.Skills)
	slices.Sort(s)
	return slices.Compact(s)
}

// lockedSource reads the skills l pins, each at its tree; held carries skills already held.
// A tree the repository does not have is an error naming the skill, tree and commit.
func (r *repo) lockedSource(l *Lock, channel string, held map[string]Skip) (*source, error) {
	prefix := r.skillsPrefix()
	lfs := &lockedFS{g: r.Git(), trees: map[string]gitstore.Hash{}}
	src := &source{channel: channel, fsys: lfs, held: map[string]Skip{}, loaded: map[string]*catalog.Skill{}}
	for k, v := range held {
		src.held[k] = v
	}
	for _, s := range l.Skills {
		if _, err := fs.ReadDir(r.Git().Objects().TreeFS(plumbing.NewHash(s.Tree)), "."); err != nil {
			return nil, fmt.Errorf("%s: skill %s: tree %s (from commit %s) is not in the skill repository %s: %v; fetch the repository (sync without --offline), or run `skillgit sync --update` to move the lock",
				LockFileName, s.Name, s.Tree, s.Commit, repoLabel(r), err)
		}
	}
	if err := r.checkLockOrigins(l, channel, prefix); err != nil {
		return nil, err
	}
	for _, s := range l.Skills {
		tree := plumbing.NewHash(s.Tree)
		dir := s.dir(prefix)
		if err := pathcheck.Tree(r.Git(), dir, tree); err != nil {
			src.hold(dir, err, true)
			continue
		}
		lfs.trees[dir] = tree
		if sk, _ := catalog.Load(lfs, dir, catalog.Lenient, true); sk != nil {
			src.loaded[s.Name] = sk
		}
		src.skills = append(src.skills, targetdir.Skill{Name: s.Name, Dir: dir, Hash: s.Tree})
	}
	return src, nil
}

// skillsPrefix is the skills folder of the repository, clean and without slashes around it.
func (r *repo) skillsPrefix() string {
	return strings.Trim(path.Clean(r.Config().SkillsDir), "/")
}

// lockFolder is what the lock records as the folder of a skill at dir, a folder of the
// repository: its path below the skills folder prefix when that is not the skill's name.
func lockFolder(prefix, name, dir string) string {
	rel := dir
	if prefix != "." && prefix != "" {
		rel = strings.TrimPrefix(dir, prefix+"/")
	}
	if rel == name {
		return ""
	}
	return rel
}
