package lifecycle

import (
	"fmt"
	"path"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
)

// folderChange is a skill folder that differs between two versions; a zero hash means the
// folder is absent on that side.
type folderChange struct {
	path       string
	base, head gitstore.Hash
	// mode is the file mode of a change to a policy file; zero for a folder.
	mode filemode.FileMode
}

// entry is the tree entry that puts the change's head in place; nil for a deletion.
func (f folderChange) entry() *gitstore.TreeEntry {
	if f.mode == 0 || f.head.IsZero() {
		return dirEntry(f.head)
	}
	return &gitstore.TreeEntry{Mode: f.mode, Hash: f.head}
}

func (f folderChange) name() string { return path.Base(f.path) }

// folderChanges lists the skill folders that differ between two root trees, and the paths
// outside any skill folder that differ, which skillgit does not publish.
func (r *Repo) folderChanges(baseRoot, headRoot gitstore.Hash) ([]folderChange, []string, error) {
	fd, outside, err := r.diffSkills(baseRoot, headRoot)
	if err != nil {
		return nil, nil, err
	}
	if outside {
		return fd.changes, append([]string{"files outside " + r.Config.SkillsDir + "/"}, fd.stray...), nil
	}
	return fd.changes, fd.stray, nil
}

// diffSkills walks the skills folder of two root trees and reports whether anything outside
// it differs too.
func (r *Repo) diffSkills(baseRoot, headRoot gitstore.Hash) (*folderDiff, bool, error) {
	dir := r.Config.SkillsDir
	b, err := r.FolderAt(baseRoot, dir)
	if err != nil {
		return nil, false, err
	}
	h, err := r.FolderAt(headRoot, dir)
	if err != nil {
		return nil, false, err
	}
	fd := &folderDiff{g: r.Git}
	if err := fd.walk(dir, b, h, 0); err != nil {
		return nil, false, err
	}
	outside, err := r.outsideChanged(baseRoot, headRoot, b)
	return fd, outside, err
}

// dirEntry is the tree entry of folder h, or nil (a removal) when h is zero.
func dirEntry(h gitstore.Hash) *gitstore.TreeEntry {
	if h.IsZero() {
		return nil
	}
	return &gitstore.TreeEntry{Mode: filemode.Dir, Hash: h}
}

// outsideChanged reports whether anything outside the skills folder differs: the head with
// the base's skills folder put back must be the base.
func (r *Repo) outsideChanged(baseRoot, headRoot, baseSkills gitstore.Hash) (bool, error) {
	same, err := r.Git.ReplacePath(headRoot, r.Config.SkillsDir, dirEntry(baseSkills))
	if err != nil || same == baseRoot || baseRoot.IsZero() {
		return false, err
	}
	return true, nil
}

// folderDiff walks two versions of the skills folder.
type folderDiff struct {
	g       *gitstore.Repo
	changes []folderChange
	stray   []string
}

func (d *folderDiff) walk(p string, base, head gitstore.Hash, depth int) error {
	if base == head {
		return nil
	}
	// The trees are compared as read, undecoded: a category folder of thousands of skills
	// of which one changed costs a scan of its bytes.
	bt, err := d.g.ReadRawTree(base)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	ht, err := d.g.ReadRawTree(head)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	skill, err := isSkillFolder(bt, ht)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	if skill || depth >= catalog.DefaultMaxDepth {
		d.changes = append(d.changes, folderChange{path: p, base: base, head: head})
		return nil
	}
	return gitstore.DiffRawTrees(bt, ht, func(b, h gitstore.TreeEntry) error {
		return d.child(p, b, h, depth)
	})
}

// isSkillFolder reports whether either version of a folder holds a SKILL.md.
func isSkillFolder(base, head gitstore.RawTree) (bool, error) {
	for _, t := range []gitstore.RawTree{base, head} {
		if ok, err := t.Has(catalog.FileName); ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

// child compares one entry present on either side or both.
func (d *folderDiff) child(p string, b, h gitstore.TreeEntry, depth int) error {
	if b == h {
		return nil
	}
	name := b.Name
	if name == "" {
		name = h.Name
	}
	if isDirOrNone(b) && isDirOrNone(h) {
		return d.walk(path.Join(p, name), b.Hash, h.Hash, depth+1)
	}
	d.stray = append(d.stray, path.Join(p, name))
	return nil
}

func isDirOrNone(e gitstore.TreeEntry) bool { return e.Hash.IsZero() || e.Mode == filemode.Dir }
