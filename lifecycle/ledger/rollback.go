package ledger

import (
	"fmt"
	"slices"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
)

// maxWalk bounds how far back along a first-parent line a rollback's publish is looked for.
const maxWalk = 10000

// verifyRollback says why single-parent commit c is not a rollback, "" when it is: the
// commit it says it reverts is a publish on c's own first-parent line, and c puts each skill
// folder it changes back to what that publish replaced, where the publish's version is still
// in place; c changes nothing else. It returns the publish and the skill folders c changed.
func (l *Ledger) verifyRollback(c Commit) (string, gitstore.Hash, []FolderChange, error) {
	d, err := l.diffParent(c)
	if err != nil {
		return "", gitstore.ZeroHash, nil, err
	}
	target, ok := RevertTarget(c.C.Message, c.Claims)
	if !ok {
		return "names no commit it rolls back", gitstore.ZeroHash, d.Folders, nil
	}
	found, err := l.onLine(c.C.ParentHashes[0], target)
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
	changed, err := l.publishChanges(pub)
	if err != nil {
		return "", gitstore.ZeroHash, nil, unreadable(target, err)
	}
	return restores(c, d, pub, changed, l.skillsDir), target, d.Folders, nil
}

// restores says why the changes d of c do not each put a folder of publish pub, which
// changed changed, back to what pub replaced, with pub's version still in place. (Once a
// rollback has undone it, the folder holds what pub replaced, so pub cannot be rolled back
// twice.)
func restores(c Commit, d *Diff, pub *Step, changed []FolderChange, skillsDir string) string {
	if len(d.Stray) > 0 || d.Outside {
		return fmt.Sprintf("changes %s: a rollback restores skill folders only", describe(d, skillsDir))
	}
	if len(d.Folders) == 0 {
		return "changes no skill folder"
	}
	for _, f := range d.Folders {
		i := slices.IndexFunc(changed, func(g FolderChange) bool { return g.Path == f.Path })
		switch {
		case i < 0:
			return fmt.Sprintf("changes %s, which publish %s did not change", f.Path, shortHash(pub.Commit.Hash))
		case f.Head != changed[i].Base:
			return fmt.Sprintf("changes %s to a version that publish %s did not replace", f.Path, shortHash(pub.Commit.Hash))
		case f.Base != changed[i].Head:
			return fmt.Sprintf("changes %s, which the branch changed after publish %s", f.Path, shortHash(pub.Commit.Hash))
		}
	}
	for _, skill := range c.Claims.All(KeySkill) {
		if !slices.ContainsFunc(d.Folders, func(f FolderChange) bool { return f.Name() == skill }) {
			return fmt.Sprintf("claims it rolls back %s, which it does not change", skill)
		}
	}
	return ""
}

// onLine reports whether target is on the first-parent line of h, within maxWalk commits.
// The first parents it reads are remembered, so the rollbacks of one long line cost one walk.
func (l *Ledger) onLine(h, target gitstore.Hash) (bool, error) {
	for range maxWalk {
		if h == target {
			return true, nil
		}
		p, ok, err := l.firstParent(h)
		if err != nil || !ok {
			return false, err
		}
		h = p
	}
	return false, nil
}

// firstParent is the first parent of commit h; false for a root commit.
func (l *Ledger) firstParent(h gitstore.Hash) (gitstore.Hash, bool, error) {
	l.mu.Lock()
	p, ok := l.parents[h]
	l.mu.Unlock()
	if ok {
		return p, !p.IsZero(), nil
	}
	c, err := l.s.Commit(h)
	if err != nil {
		return gitstore.ZeroHash, false, fmt.Errorf("commit %s: %w", h, err)
	}
	l.noteParent(h, c)
	if len(c.ParentHashes) == 0 {
		return gitstore.ZeroHash, false, nil
	}
	return c.ParentHashes[0], true, nil
}

// noteParent remembers commit h's first parent, the zero hash for a root commit.
func (l *Ledger) noteParent(h gitstore.Hash, c *object.Commit) {
	p := gitstore.ZeroHash
	if len(c.ParentHashes) > 0 {
		p = c.ParentHashes[0]
	}
	l.mu.Lock()
	l.parents[h] = p
	l.mu.Unlock()
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
