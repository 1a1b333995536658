package ledger

import (
	"fmt"
	"slices"

	"github.com/skillgit/skillgit/gitstore"
)

// maxWalk bounds how far back along a first-parent line a rollback's publish is looked for.
const maxWalk = 10000

// verifyRollback says why single-parent commit c is not a rollback, "" when it is: the
// commit it says it reverts is a publish on c's own first-parent line, and c puts each skill
// folder it changes back to what that publish replaced, where the publish's version is still
// in place and no rollback since undid it; c changes nothing else. It returns the publish and
// the skill folders c changed.
func (l *Ledger) verifyRollback(c Commit) (string, gitstore.Hash, []FolderChange, error) {
	d, err := l.diffParent(c)
	if err != nil {
		return "", gitstore.ZeroHash, nil, err
	}
	target, ok := RevertTarget(c.C.Message, c.Claims)
	if !ok {
		return "names no commit it rolls back", gitstore.ZeroHash, d.Folders, nil
	}
	between, found, err := l.lineBack(c.C.ParentHashes[0], target)
	if err != nil {
		return "", gitstore.ZeroHash, nil, err
	}
	if !found {
		return fmt.Sprintf("rolls back %s, which is not on this branch's first-parent line", shortHash(target)), target, d.Folders, nil
	}
	pub, err := l.Step(target)
	if err != nil {
		return "", gitstore.ZeroHash, nil, err
	}
	if pub.Kind != KindPublish {
		return fmt.Sprintf("rolls back %s, which is not a publish (%s): a rollback only walks back publishes, and bringing back what a rollback removed is a publish that needs approvals",
			shortHash(target), describeStep(pub)), target, d.Folders, nil
	}
	why, err := l.restores(c, d, pub, between)
	return why, target, d.Folders, err
}

// restores says why the changes d of c do not each put a folder of publish pub back to what
// pub replaced, with pub's version still in place and not undone by a rollback of between.
func (l *Ledger) restores(c Commit, d *Diff, pub *Step, between []*Step) (string, error) {
	if len(d.Stray) > 0 || d.Outside {
		return fmt.Sprintf("changes %s: a rollback restores skill folders only", describe(d, l.skillsDir)), nil
	}
	if len(d.Folders) == 0 {
		return "changes no skill folder", nil
	}
	for _, f := range d.Folders {
		i := slices.IndexFunc(pub.Changes, func(g FolderChange) bool { return g.Path == f.Path })
		switch {
		case i < 0:
			return fmt.Sprintf("changes %s, which publish %s did not change", f.Path, shortHash(pub.Commit.Hash)), nil
		case f.Head != pub.Changes[i].Base:
			return fmt.Sprintf("changes %s to a version that publish %s did not replace", f.Path, shortHash(pub.Commit.Hash)), nil
		case f.Base != pub.Changes[i].Head:
			return fmt.Sprintf("changes %s, which the branch changed after publish %s", f.Path, shortHash(pub.Commit.Hash)), nil
		}
		if by := undoneBy(between, pub.Commit.Hash, f.Path); by != nil {
			return fmt.Sprintf("rolls back %s of publish %s, which rollback %s undid already", f.Path, shortHash(pub.Commit.Hash), shortHash(by.Commit.Hash)), nil
		}
	}
	for _, skill := range c.Claims.All(KeySkill) {
		if !slices.ContainsFunc(d.Folders, func(f FolderChange) bool { return f.Name() == skill }) {
			return fmt.Sprintf("claims it rolls back %s, which it does not change", skill), nil
		}
	}
	return "", nil
}

// undoneBy returns the rollback among steps that undid path of publish pub, or nil.
func undoneBy(steps []*Step, pub gitstore.Hash, path string) *Step {
	for _, st := range steps {
		if st.Kind == KindRollback && st.Undoes == pub && slices.ContainsFunc(st.Changes, func(f FolderChange) bool { return f.Path == path }) {
			return st
		}
	}
	return nil
}

// lineBack walks the first-parent line from h back to target and returns the rollbacks after
// target, newest first, and whether target is on the line within maxWalk commits. Only the
// commits that claim to roll back are derived: no other can be a rollback.
func (l *Ledger) lineBack(h, target gitstore.Hash) ([]*Step, bool, error) {
	var out []*Step
	for range maxWalk {
		if h == target {
			return out, true, nil
		}
		c, err := readCommit(l.s, h)
		if err != nil {
			return nil, false, err
		}
		if _, claims := RevertTarget(c.C.Message, c.Claims); claims || c.Action() == ActRollback {
			st, err := l.Step(h)
			if err != nil {
				return nil, false, err
			}
			out = append(out, st)
		}
		if len(c.C.ParentHashes) == 0 {
			return out, false, nil
		}
		h = c.C.ParentHashes[0]
	}
	return out, false, nil
}

// describeStep says what a step is, for messages.
func describeStep(st *Step) string {
	switch {
	case st.Kind != KindCommit:
		return string(st.Kind)
	case st.Claim != "":
		return "a commit that claims " + st.Claim
	}
	return "a commit"
}
