package lifecycle

import (
	"fmt"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

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

// skillTrees compares root trees of a repository whose skills live in the folder dir: the
// skill folders that differ between two of them, and what differs besides.
type skillTrees struct {
	g   *gitstore.Repo
	dir string
}

// treesOf compares the root trees of r under the skills folder of its configuration.
func treesOf(r *Repo) skillTrees { return skillTrees{g: r.Git, dir: r.Config.SkillsDir} }

// changes lists the skill folders that differ between two root trees, and the paths outside
// any skill folder that differ, which skillgit does not publish.
func (st skillTrees) changes(baseRoot, headRoot gitstore.Hash) ([]folderChange, []string, error) {
	fd, outside, err := st.diff(baseRoot, headRoot)
	if err != nil {
		return nil, nil, err
	}
	if outside {
		return fd.changes, append([]string{"files outside " + st.dir + "/"}, fd.stray...), nil
	}
	return fd.changes, fd.stray, nil
}

// diff walks the skills folder of two root trees and reports whether anything outside it
// differs too.
func (st skillTrees) diff(baseRoot, headRoot gitstore.Hash) (*folderDiff, bool, error) {
	b, err := folderAt(st.g, baseRoot, st.dir)
	if err != nil {
		return nil, false, err
	}
	h, err := folderAt(st.g, headRoot, st.dir)
	if err != nil {
		return nil, false, err
	}
	fd := &folderDiff{g: st.g}
	if err := fd.walk(st.dir, b, h, 0); err != nil {
		return nil, false, err
	}
	outside, err := st.outsideChanged(baseRoot, headRoot, b)
	return fd, outside, err
}

// isSkillPath reports whether p lies in the skills folder.
func (st skillTrees) isSkillPath(p string) bool { return strings.HasPrefix(p, st.dir+"/") }

// dirEntry is the tree entry of folder h, or nil (a removal) when h is zero.
func dirEntry(h gitstore.Hash) *gitstore.TreeEntry {
	if h.IsZero() {
		return nil
	}
	return &gitstore.TreeEntry{Mode: filemode.Dir, Hash: h}
}

// outsideChanged reports whether anything outside the skills folder differs: the head with
// the base's skills folder put back must be the base.
func (st skillTrees) outsideChanged(baseRoot, headRoot, baseSkills gitstore.Hash) (bool, error) {
	same, err := st.g.ReplacePath(headRoot, st.dir, dirEntry(baseSkills))
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

// outsidePaths names the files that differ between two root trees outside the skills folder.
func (st skillTrees) outsidePaths(baseRoot, headRoot gitstore.Hash) ([]string, error) {
	b, err := treeObject(st.g, baseRoot)
	if err != nil {
		return nil, err
	}
	h, err := treeObject(st.g, headRoot)
	if err != nil {
		return nil, err
	}
	changes, err := object.DiffTree(b, h)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, ch := range changes {
		p := ch.To.Name
		if p == "" {
			p = ch.From.Name
		}
		if !st.isSkillPath(p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// treeObject is tree h decoded; the empty tree when h is zero.
func treeObject(g *gitstore.Repo, h gitstore.Hash) (*object.Tree, error) {
	if h.IsZero() {
		return &object.Tree{}, nil
	}
	return g.Git().TreeObject(h)
}

// mergeBaseTree is the tree of the best common ancestor of a and b (the empty tree if none).
func mergeBaseTree(g *gitstore.Repo, a, b gitstore.Hash) (gitstore.Hash, error) {
	base, err := g.MergeBase(a, b)
	if err != nil || base.IsZero() {
		return gitstore.ZeroHash, err
	}
	c, err := g.Commit(base)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	return c.TreeHash, nil
}

// folderAt returns the tree of folder p in the root tree tree, or ZeroHash when there is none.
func folderAt(g *gitstore.Repo, tree gitstore.Hash, p string) (gitstore.Hash, error) {
	if tree.IsZero() {
		return gitstore.ZeroHash, nil
	}
	e, ok, err := g.EntryAt(tree, p)
	if err != nil || !ok || e.Mode != filemode.Dir {
		return gitstore.ZeroHash, err
	}
	return e.Hash, nil
}
