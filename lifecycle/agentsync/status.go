package agentsync

import (
	"path/filepath"

	"github.com/skillgit/skillgit/targetdir"
)

// StateOutdated is an installed skill whose published version is another, or that is no
// longer published; a sync would update or remove it.
const StateOutdated targetdir.State = "outdated"

// TargetStatus is what one target folder holds, compared with its manifest and the channel.
type TargetStatus struct {
	Target
	// Skills are the skills found, in name order.
	Skills []SkillStatus
}

// SkillStatus is one skill of a target.
type SkillStatus struct {
	// Name is the skill's folder name.
	Name string
	// Path is its folder.
	Path string
	// State is installed, edited, missing, foreign or outdated. An edited skill whose
	// published version changed too is edited, with Outdated set.
	State targetdir.State
	// Outdated says the installed version is not the published one.
	Outdated bool
	// Installed is the source tree id the manifest records; empty for a foreign skill.
	Installed string
	// Published is the tree id on the channel; empty when the skill is not published.
	Published string
}

// StatusReport is what `skillgit sync --status` reports.
type StatusReport struct {
	// Channel is the channel compared with.
	Channel string
	// Targets are the target folders, in the order of the request.
	Targets []TargetStatus
	// Warnings are printed on stderr.
	Warnings []string
}

// Status reports, for every target of the request, the skills it holds and how each compares
// with what skillgit installed and with what the channel publishes. It writes nothing.
func Status(req Request) (*StatusReport, error) {
	r, src, err := openSource(req)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	targets, warns, err := r.targets(req)
	if err != nil {
		return nil, err
	}
	published := map[string]string{}
	for _, s := range src.skills {
		published[s.Name] = s.Hash
	}
	rep := &StatusReport{Channel: src.channel, Warnings: warns}
	for _, t := range targets {
		found, err := targetdir.Inspect(t.Dir)
		if err != nil {
			return nil, err
		}
		ts := TargetStatus{Target: t, Skills: []SkillStatus{}}
		for _, s := range found {
			ts.Skills = append(ts.Skills, skillStatus(s, published))
		}
		rep.Targets = append(rep.Targets, ts)
	}
	return rep, nil
}

// skillStatus compares one installed skill with the published one.
func skillStatus(s targetdir.InstalledSkill, published map[string]string) SkillStatus {
	out := SkillStatus{Name: s.Name, Path: s.Path, State: s.State, Installed: s.Source, Published: published[s.Name]}
	if s.State == targetdir.StateForeign {
		return out
	}
	out.Outdated = out.Installed != out.Published
	if out.Outdated && s.State == targetdir.StateInstalled {
		out.State = StateOutdated
	}
	return out
}

// openSource opens the repository of a request, as Run does (an application project's sync
// file included), and reads the skills it installs: those the project's lock pins, or the
// channel's, narrowed to the sync file's selection.
func openSource(req Request) (*repo, *source, error) {
	r, err := openRepo(req)
	if err != nil {
		return nil, nil, err
	}
	err = r.checkSyncFileAgents()
	var src *source
	if err == nil {
		src, err = r.statusSource(req)
	}
	if err != nil {
		r.Close()
		return nil, nil, err
	}
	return r, src, nil
}

// statusSource reads what a sync of req would install: what the project's lock pins, when
// there is one, or the channel's selected skills.
func (r *repo) statusSource(req Request) (*source, error) {
	if r.usesLock(req) {
		l, found, err := ReadLock(filepath.Join(r.project, LockFileName))
		if err != nil {
			return nil, err
		}
		if found {
			return r.lockedSource(l, r.channelOf(req), nil)
		}
	}
	return r.source(req)
}
