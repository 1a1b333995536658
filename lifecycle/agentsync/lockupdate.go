package agentsync

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/policy"
	"github.com/skillgit/skillgit/targetdir"
)

// Change kinds of a LockChange.
const (
	ChangeAdded   = "added"
	ChangeChanged = "changed"
	ChangeRemoved = "removed"
)

// source is what a sync with a lock installs: the locked skills, or, to move the lock, the
// channel's tip for every skill or the named ones with the others as locked.
func (lk *lockRun) source(r *repo, req Request) (*source, error) {
	if lk.mode == LockInstall || lk.mode == LockFrozen {
		lk.rep.Commit = lk.old.Commit
		if _, err := r.Git().Objects().Commit(plumbing.NewHash(lk.old.Commit)); err != nil {
			return nil, fmt.Errorf("%s: commit %s is not in the skill repository %s: %v; fetch the repository (sync without --offline), or run `skillgit sync --update` to move the lock",
				LockFileName, lk.old.Commit, repoLabel(r), err)
		}
		if err := lk.verifyLocked(r, lk.old); err != nil {
			return nil, err
		}
		return r.lockedSource(lk.old, lk.channel, nil)
	}
	tip, err := r.Book().ChannelCommit(lk.channel)
	if err != nil {
		return nil, err
	}
	req.Channel, req.Commit = lk.channel, tip
	chanSrc, err := r.readSource(req)
	if err != nil {
		return nil, err
	}
	published := make(map[string]bool, len(chanSrc.skills))
	for _, s := range chanSrc.skills {
		published[s.Name] = true
	}
	if err := r.selectSkills(chanSrc); err != nil {
		return nil, err
	}
	names := req.Update
	if lk.mode == LockCheck {
		names = nil
	}
	if err := lk.checkNames(r, chanSrc, names, published); err != nil {
		return nil, err
	}
	if chanSrc.held == nil {
		chanSrc.held = map[string]Skip{}
	}
	lk.held = chanSrc.held
	if err := lk.move(r, chanSrc, tip, names); err != nil {
		return nil, err
	}
	return r.lockedSource(lk.next, lk.channel, chanSrc.held)
}

// checkNames makes sure every skill named for --update is one the sync file selects, or one
// the lock holds; published names the skills of the channel, selected or not.
func (lk *lockRun) checkNames(r *repo, src *source, names []string, published map[string]bool) error {
	for _, n := range names {
		if err := catalog.CheckSkillName(n); err != nil {
			return err
		}
		onChannel := slices.ContainsFunc(src.skills, func(s targetdir.Skill) bool { return s.Name == n })
		if _, locked := lk.locked(n); onChannel || locked {
			continue
		}
		if published[n] {
			return fmt.Errorf("--update %s: the skill is published on %s in %s, but %s does not select it (%s); %s, then run `skillgit sync --update %s`",
				n, lk.channel, repoLabel(r), r.syncPath, r.selectionLabel(), r.howToSelect(), n)
		}
		return fmt.Errorf("--update %s: no skill %s is published on %s in %s, nor locked in %s; name a skill the project installs", n, n, lk.channel, repoLabel(r), lk.file)
	}
	return nil
}

// selectionLabel says how the sync file selects its skills, such as "skills: [pdf]".
func (r *repo) selectionLabel() string {
	if r.sync.Profile != "" {
		return "profile " + r.sync.Profile
	}
	return "skills: [" + strings.Join(r.sync.Skills, ", ") + "]"
}

// howToSelect says how a skill is added to the sync file's selection.
func (r *repo) howToSelect() string {
	if r.sync.Profile != "" {
		return fmt.Sprintf("add it to the profile %s in the %s of the skill repository %s, or list the skills under skills: in place of profile:",
			r.sync.Profile, policy.ConfigFile, repoLabel(r))
	}
	return "add it to skills: there"
}

// move computes the lock at the channel's commit tip for the named skills, or all when none
// are named, keeping the others as locked, and the changes from the old lock.
func (lk *lockRun) move(r *repo, src *source, tip gitstore.Hash, names []string) error {
	next := &Lock{Version: LockVersion, Repository: r.sync.Repository, Branch: r.publishBranch(), Channel: lk.channel, Commit: tip.String(),
		Profile: r.sync.Profile, Select: selection(r.sync)}
	moved := func(n string) bool { return len(names) == 0 || slices.Contains(names, n) }
	prefix := r.skillsPrefix()
	var fresh []string
	for _, s := range src.skills {
		old, wasLocked := lk.locked(s.Name)
		switch {
		case moved(s.Name) && wasLocked && old.Tree == s.Hash:
			next.Skills = append(next.Skills, old)
		case moved(s.Name):
			next.Skills = append(next.Skills, LockedSkill{Name: s.Name, Folder: lockFolder(prefix, s.Name, s.Dir), Tree: s.Hash, Commit: tip.String()})
			fresh = append(fresh, s.Name)
		case wasLocked:
			next.Skills = append(next.Skills, old)
		}
	}
	if lk.old != nil {
		for _, o := range lk.old.Skills {
			if !moved(o.Name) && !slices.ContainsFunc(next.Skills, func(s LockedSkill) bool { return s.Name == o.Name }) && lk.stillSelected(r, o.Name) {
				next.Skills = append(next.Skills, o)
			}
		}
	}
	slices.SortFunc(next.Skills, func(a, b LockedSkill) int { return strings.Compare(a.Name, b.Name) })
	lk.next = next
	fresh, err := lk.verifyMoved(r, tip, fresh, lk.held)
	if err != nil {
		return err
	}
	return lk.describe(r, tip, fresh)
}

// locked returns the old lock's entry for skill n.
func (lk *lockRun) locked(n string) (LockedSkill, bool) {
	if lk.old == nil {
		return LockedSkill{}, false
	}
	return lk.old.Skill(n)
}

// stillSelected reports whether the sync file still selects skill n, which the channel no
// longer has: by its skills: list, or by having no list at all.
func (lk *lockRun) stillSelected(r *repo, n string) bool {
	if r.sync.Profile != "" {
		return slices.Contains(r.Config().Profiles[r.sync.Profile], n)
	}
	return len(r.sync.Skills) == 0 || slices.Contains(r.sync.Skills, n)
}

// describe fills in who published the skills taken from the channel and lists the changes.
func (lk *lockRun) describe(r *repo, tip gitstore.Hash, fresh []string) error {
	changes := lk.changes()
	var ask []string
	ask = append(ask, fresh...)
	for _, c := range changes {
		if !slices.Contains(ask, c.Skill) {
			ask = append(ask, c.Skill)
		}
	}
	last, err := r.Book().Trail().LastChanges(tip, ask)
	if err != nil {
		return err
	}
	for i, s := range lk.next.Skills {
		if s.Commit == tip.String() && slices.Contains(fresh, s.Name) {
			if lc, ok := last[s.Name]; ok {
				lk.next.Skills[i].Published, lk.next.Skills[i].Approvers = lc.Commit, lc.ApprovedBy
			}
		}
	}
	for i, c := range changes {
		if lc, ok := last[c.Skill]; ok {
			changes[i].Publish, changes[i].Risk, changes[i].Approvers = lc.Commit, lc.Risk, lc.ApprovedBy
		}
		if s, ok := lk.next.Skill(c.Skill); ok {
			changes[i].Keys = s.Keys
		}
	}
	lk.rep.Commit, lk.rep.Changes = tip.String(), changes
	return nil
}

// changes lists the skills the next lock adds, changes or removes, in order of name.
func (lk *lockRun) changes() []LockChange {
	var out []LockChange
	for _, s := range lk.next.Skills {
		o, ok := lk.locked(s.Name)
		switch {
		case !ok:
			out = append(out, LockChange{Skill: s.Name, Change: ChangeAdded, Tree: s.Tree})
		case o.Tree != s.Tree:
			out = append(out, LockChange{Skill: s.Name, Change: ChangeChanged, Tree: s.Tree})
		}
	}
	if lk.old != nil {
		for _, o := range lk.old.Skills {
			if _, ok := lk.next.Skill(o.Name); !ok {
				out = append(out, LockChange{Skill: o.Name, Change: ChangeRemoved})
			}
		}
	}
	slices.SortFunc(out, func(a, b LockChange) int { return strings.Compare(a.Skill, b.Skill) })
	return out
}

// write writes the next lock, with the targets installed into, unless nothing moves it.
func (lk *lockRun) write(r *repo, targets []Target) error {
	if lk.next == nil {
		return nil
	}
	lk.next.Targets = r.lockTargets(targets)
	if err := WriteLock(lk.file, lk.next); err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(lk.file), err)
	}
	lk.rep.Written = true
	return nil
}

// verify checks, after a LockFrozen sync, that the targets hold exactly what the lock pins,
// as `sync --verify` would, and puts what differs in rep.Differences.
func (lk *lockRun) verify(r *repo, rep *Report) error {
	v, err := verifyLock(r.project, lk.file, lk.old, 0)
	if err != nil {
		return err
	}
	rep.Differences = v
	return nil
}
