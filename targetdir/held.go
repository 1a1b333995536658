package targetdir

import "fmt"

// More actions of a sync, besides those that change the folder.
const (
	// ActionEdited is an installed skill whose published version has not changed but which
	// was edited in the target since skillgit installed it; it is left alone.
	ActionEdited Action = "edited"
	// ActionSkip is a skill the sync leaves as it is for a reason outside the folder, such as
	// an audit that blocks its new version or an object git cannot read: an installed copy
	// stays, with its manifest entry, and nothing is installed in its place.
	ActionSkip Action = "skip"
)

// Hold turns the plan's action for skill name into a skip with reason, so that Apply
// neither writes nor removes it and its manifest entry stays as it is. A name the plan
// has no action for gets a skip action of its own, so reports still list it.
func (p *Folder) Hold(name, reason string) {
	for i := range p.Actions {
		if p.Actions[i].Skill == name {
			p.Actions[i] = p.skip(name, reason)
			return
		}
	}
	p.Actions = append(p.Actions, p.skip(name, reason))
}

func (p *Folder) skip(name, reason string) Step {
	a := p.action(name, ActionSkip)
	a.Reason = reason
	a.noWrite = true
	return a
}

// writes reports whether Apply carries action a out: skills left alone are not.
func (a Step) writes() bool {
	return a.Action != ActionConflict && a.Action != ActionEdited && a.Action != ActionSkip
}

// planKept decides about an installed skill whose published version is the one installed:
// it is kept, unless it was edited in the target, which --force overwrites.
func (p *Folder) planKept(a Step, m manifestEntry) (Step, error) {
	a.Action = ActionKeep
	got, err := p.installedHash(a.Skill)
	if err != nil {
		return a, fmt.Errorf("%s: %w", a.Path, err)
	}
	if m.wrote(p.root, a.Skill, got) {
		return a, nil
	}
	if p.opts.Force {
		a.Action = ActionUpdate
		return a, nil
	}
	a.Action = ActionEdited
	a.Reason = "edited in the target since skillgit installed it; `skillgit sync --propose-edits` proposes the edit, --force restores the published version"
	return a, nil
}
