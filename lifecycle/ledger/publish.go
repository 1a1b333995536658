package ledger

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
)

// verifyPublish says why merge c is not the publish of candidate ch, "" when it is: the
// candidate was never rejected, its tip is merged for the first time, the merge changes
// exactly the folder the candidate declares (or, published under another name, that
// folder renamed) to what the tip holds, and every claim the merge makes (skill, candidate,
// change, approvers, managed-by) is what the candidate's branch holds. It returns the skill
// folders the merge changed.
func (l *Ledger) verifyPublish(c Commit, ch *Chain) (string, []FolderChange, error) {
	d, err := l.diffParent(c)
	if err != nil {
		return "", nil, err
	}
	if ch.Rejected() {
		return fmt.Sprintf("merges candidate %s, which was rejected", ch.ID), d.Folders, nil
	}
	if id := c.Claims.Get(KeyCandidate); id != "" && id != ch.ID {
		return fmt.Sprintf("claims candidate %s but merges candidate %s", id, ch.ID), d.Folders, nil
	}
	again, err := l.s.IsAncestor(ch.Tip, c.C.ParentHashes[0])
	if err != nil {
		return "", nil, err
	}
	if again {
		return fmt.Sprintf("merges the tip of candidate %s, which the branch merged before: a candidate is published once", ch.ID), d.Folders, nil
	}
	why, err := l.mergedExactly(c, ch, d)
	if err != nil || why != "" {
		return why, d.Folders, err
	}
	why, err = l.publishClaims(c, ch)
	return why, d.Folders, err
}

// mergedExactly says why the changes d of merge c are not what publishing ch brings.
func (l *Ledger) mergedExactly(c Commit, ch *Chain, d *Diff) (string, error) {
	if ch.IsPolicy() {
		return l.policyMerged(c, ch, d)
	}
	dest := ch.Path()
	as := c.Claims.Get(KeyPublishedAs)
	if as != "" {
		dest = path.Join(path.Dir(ch.Path()), as)
	}
	if len(d.Stray) > 0 || d.Outside || len(d.Folders) != 1 || d.Folders[0].Path != dest {
		return fmt.Sprintf("changes %s, where candidate %s changes %s", describe(d, l.skillsDir), ch.ID, dest), nil
	}
	want, err := folderAt(l.s, ch.Last().C.TreeHash, ch.Path())
	if err != nil {
		return "", err
	}
	got := d.Folders[0].Head
	if as == "" {
		if got != want {
			return fmt.Sprintf("does not hold %s as candidate %s's tip does", dest, ch.ID), nil
		}
		return "", nil
	}
	same, err := l.renamedCopy(want, got, as)
	if err != nil || same {
		return "", err
	}
	return fmt.Sprintf("does not hold %s as candidate %s's tip, renamed %s, does", dest, ch.ID, as), nil
}

// policyMerged says why a merge of policy candidate ch does not bring exactly its policy files.
func (l *Ledger) policyMerged(c Commit, ch *Chain, d *Diff) (string, error) {
	if len(d.Folders) > 0 || len(d.Stray) > 0 {
		return fmt.Sprintf("changes %s, where policy candidate %s changes policy only", describe(d, l.skillsDir), ch.ID), nil
	}
	got, err := ch.ScopeKey(l.s, l.skillsDir, c.C.TreeHash)
	if err != nil {
		return "", err
	}
	want, err := ch.ScopeKey(l.s, l.skillsDir, ch.Last().C.TreeHash)
	if err != nil || got == want {
		return "", err
	}
	return fmt.Sprintf("does not hold the policy files as policy candidate %s's tip does", ch.ID), nil
}

// renamedCopy reports whether folder got is folder want with its SKILL.md's name set to as,
// every other file the same.
func (l *Ledger) renamedCopy(want, got gitstore.Hash, as string) (bool, error) {
	wt, err := l.s.ReadRawTree(want)
	if err != nil {
		return false, err
	}
	gt, err := l.s.ReadRawTree(got)
	if err != nil {
		return false, err
	}
	same := true
	err = gitstore.DiffRawTrees(wt, gt, func(a, b gitstore.TreeEntry) error {
		if a.Name != catalog.FileName || b.Name != catalog.FileName || a.Mode != b.Mode {
			same = false
			return errStopDiff
		}
		data, err := l.s.ReadBlob(a.Hash, catalog.MaxSkillFileSize)
		if err != nil {
			return err
		}
		renamed, err := catalog.RenameSkill(data, as)
		if err != nil || plumbing.ComputeHash(plumbing.BlobObject, renamed) != b.Hash {
			same = false
			return errStopDiff
		}
		return nil
	})
	if err == errStopDiff {
		err = nil
	}
	return same, err
}

// publishClaims says why the claims of publish merge c differ from what candidate ch's
// branch holds; "" when they agree. A merge made with git claims nothing.
func (l *Ledger) publishClaims(c Commit, ch *Chain) (string, error) {
	if c.Action() != ActPublish {
		return "", nil
	}
	p := ch.Propose().Claims
	for _, key := range []string{KeySkill, KeyChange, KeyManagedBy} {
		if got, want := c.Claims.Get(key), p.Get(key); got != want {
			return fmt.Sprintf("claims %s %q, where candidate %s has %q", key, got, ch.ID, want), nil
		}
	}
	approvals, err := ch.Approvals(l.s, l.skillsDir)
	if err != nil {
		return "", err
	}
	var people, modes []string
	for _, a := range approvals {
		if m := a.Claims.Get(KeyPolicy); m != "" {
			modes = append(modes, m)
		} else {
			people = append(people, a.C.Author.Name+" <"+a.C.Author.Email+">")
		}
	}
	if got := c.Claims.All(KeyApproved); !slices.Equal(got, people) {
		return fmt.Sprintf("claims the approvals of %s, where candidate %s's tip is approved by %s", orNone(got), ch.ID, orNone(people)), nil
	}
	if got := c.Claims.All(KeyPolicy); !slices.Equal(got, modes) {
		return fmt.Sprintf("claims approvals by policy %s, where candidate %s's tip has %s", orNone(got), ch.ID, orNone(modes)), nil
	}
	return "", nil
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}

// describe names what a diff changes, for messages.
func describe(d *Diff, skillsDir string) string {
	var out []string
	for _, f := range d.Folders {
		out = append(out, f.Path)
	}
	out = append(out, d.Stray...)
	if d.Outside {
		out = append(out, "files outside "+skillsDir+"/")
	}
	if len(out) == 0 {
		return "nothing"
	}
	return strings.Join(out, ", ")
}
