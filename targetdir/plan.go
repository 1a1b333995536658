package targetdir

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillgit/skillgit/catalog"
)

// plan fills p.Actions from the source skills, the manifest and the folder's listing.
func (p *Folder) plan(skills []Skill) error {
	listing := p.listing
	seen := make(map[string]bool, len(skills))
	p.Actions = make([]Step, 0, max(len(skills), len(p.man.Skills))+len(p.opts.Hold))
	for i := range skills {
		s := &skills[i]
		if err := catalog.ValidateName(s.Name); err != nil {
			return fmt.Errorf("skill %s: %w; rename its folder", s.Dir, err)
		}
		if seen[s.Name] {
			return fmt.Errorf("skill %s: two skills are named %s; rename one", s.Dir, s.Name)
		}
		seen[s.Name] = true
		a, err := p.planSkill(s, listing)
		if err != nil {
			return err
		}
		p.Actions = append(p.Actions, a)
	}
	for name, m := range p.man.Skills {
		if reason, held := p.opts.Hold[name]; held && !seen[name] {
			seen[name] = true
			p.Actions = append(p.Actions, p.skip(name, reason))
			continue
		}
		if !seen[name] {
			a, err := p.planRemove(name, m, listing)
			if err != nil {
				return err
			}
			p.Actions = append(p.Actions, a)
		}
	}
	for name, reason := range p.opts.Hold {
		if !seen[name] {
			p.Actions = append(p.Actions, p.skip(name, reason))
		}
	}
	byName := func(a, b Step) int { return strings.Compare(a.Skill, b.Skill) }
	if !slices.IsSortedFunc(p.Actions, byName) {
		slices.SortFunc(p.Actions, byName)
	}
	return nil
}

// list reads the names in the folder, and notes what an interrupted sync left behind. Names
// alone are read: a folder opened in an os.Root would stat every entry to give its type.
func (p *Folder) list() (map[string]bool, error) {
	out := map[string]bool{}
	if p.root == nil {
		return out, nil
	}
	f, err := p.root.Open(".")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Dir, err)
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Dir, err)
	}
	out = make(map[string]bool, len(names))
	for _, name := range names {
		if isLeftover(name) {
			p.leftover = append(p.leftover, name)
			continue
		}
		out[name] = true
	}
	slices.Sort(p.leftover)
	return out, nil
}

func (p *Folder) action(name string, kind Action) Step {
	return Step{Skill: name, Path: p.skillPath(name), Action: kind}
}

// skillPath is filepath.Join(p.Dir, name) for name, one path element that is neither . nor
// .. (catalog.ValidateName or the manifest's check passed it), without cleaning the whole path again.
func (p *Folder) skillPath(name string) string {
	if p.cleanDir == "" {
		p.cleanDir = filepath.Clean(p.Dir)
	}
	if p.cleanDir == "." || name == "" || name == "." || name == ".." || strings.ContainsRune(name, filepath.Separator) {
		return filepath.Join(p.Dir, name)
	}
	if os.IsPathSeparator(p.cleanDir[len(p.cleanDir)-1]) {
		return p.cleanDir + name
	}
	return p.cleanDir + string(filepath.Separator) + name
}

// planSkill decides what to do with one source skill.
func (p *Folder) planSkill(s *Skill, listing map[string]bool) (Step, error) {
	m, owned := p.man.Skills[s.Name]
	_, exists := listing[s.Name]
	a := p.action(s.Name, ActionInstall)
	a.src = s
	switch {
	case !exists:
		return a, nil
	case owned && m.Source == s.Hash && m.Mode == p.opts.Mode:
		return p.planKept(a, m)
	}
	if !owned {
		return p.planForeign(a)
	}
	a.Action = ActionUpdate
	return p.checkEdited(a, m)
}

// planForeign handles a folder skillgit did not install where a skill goes. When it already
// holds exactly what would be written (a sync was interrupted after writing it), it is
// adopted; otherwise it is never touched.
func (p *Folder) planForeign(a Step) (Step, error) {
	want, err := p.expected(a.src)
	if err != nil {
		return a, err
	}
	if got, err := hashInstalled(p.root, a.Skill); err == nil && got == want {
		a.noWrite, a.written = true, want
		return a, nil
	}
	a.Action = ActionConflict
	a.Reason = "not installed by skillgit, so it is left alone; move it away to install the published skill"
	return a, nil
}

// checkEdited turns an update into a conflict when the installed folder is not what
// skillgit wrote there, per manifest entry m: it was edited since, or, after an interrupted
// install, made by someone else. --force overrides.
func (p *Folder) checkEdited(a Step, m manifestEntry) (Step, error) {
	got, err := p.installedHash(a.Skill)
	if err != nil {
		return a, fmt.Errorf("%s: %w", a.Path, err)
	}
	if m.wrote(p.root, a.Skill, got) || p.opts.Force {
		return a, nil
	}
	if a.src != nil {
		want, err := p.expected(a.src)
		if err != nil {
			return a, err
		}
		if got == want {
			a.noWrite, a.written = true, want
			return a, nil
		}
	}
	a.Action = ActionConflict
	a.Reason = "edited in the target since skillgit installed it; keep your edit by proposing it (skillgit sync --propose-edits), or pass --force to overwrite it"
	if m.Written == pendingHash {
		a.Reason = "an interrupted sync was installing it, and the folder now holds content skillgit did not write; move it away, or pass --force to overwrite it"
	}
	return a, nil
}

// planRemove decides what to do with an installed skill that is no longer in the source.
func (p *Folder) planRemove(name string, m manifestEntry, listing map[string]bool) (Step, error) {
	a := p.action(name, ActionRemove)
	if _, exists := listing[name]; !exists {
		a.noWrite = true
		return a, nil
	}
	a, err := p.checkEdited(a, m)
	if a.Action == ActionConflict && m.Written != pendingHash {
		a.Reason = "no longer published, but edited in the target since skillgit installed it; move it away, or pass --force to remove it"
	}
	return a, err
}

// expected returns the hash the installed folder of s has once written.
func (p *Folder) expected(s *Skill) (string, error) {
	if p.opts.Mode == Symlink {
		return linkHash(p.linkTarget(s)), nil
	}
	c := newContentHash()
	var warn []string
	if err := walkSkill(p.src, s.Dir, c, nil, &warn); err != nil {
		return "", fmt.Errorf("skill %s: %w", s.Dir, err)
	}
	return c.sum(), nil
}

// linkTarget is where the link of s points in symlink mode.
func (p *Folder) linkTarget(s *Skill) string {
	return filepath.Join(p.opts.LinkStore, safeHash(s.Hash), s.Name)
}

// safeHash makes a source hash usable as one path element.
func safeHash(h string) string {
	out := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '_'
	}, h)
	if out == "" {
		return "_"
	}
	return out
}
