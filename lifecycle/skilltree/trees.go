// Package skilltree compares root trees of a skill repository under its skills folder: the
// skill folders that differ between two versions, what differs besides, and whether a change
// would give a skill name a second folder. It only reads git.
package skilltree

import (
	"fmt"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// Change is a skill folder that differs between two versions; a zero hash means the folder
// is absent on that side.
type Change struct {
	Path       string
	Base, Head gitstore.Hash
	// Mode is the file mode of a change to a policy file; zero for a folder.
	Mode filemode.FileMode
}

// Entry is the tree entry that puts the change's head in place; nil for a deletion.
func (f Change) Entry() *gitstore.TreeEntry {
	if f.Mode == 0 || f.Head.IsZero() {
		return DirEntry(f.Head)
	}
	return &gitstore.TreeEntry{Mode: f.Mode, Hash: f.Head}
}

// Name is the skill's name as its folder's: the last element of the change's path.
func (f Change) Name() string { return path.Base(f.Path) }

// Trees compares root trees of a repository whose skills live in the folder dir: the skill
// folders that differ between two of them, and what differs besides.
type Trees struct {
	g   *gitstore.Repo
	dir string
}

// New compares the root trees of g under the skills folder dir.
func New(g *gitstore.Repo, dir string) Trees { return Trees{g: g, dir: dir} }

// Diff is what differs inside the skills folder of two root trees: the skill folders, and
// the paths that belong to no skill.
type Diff struct {
	Changes []Change
	Stray   []string
}

// Changes lists the skill folders that differ between two root trees, and the paths outside
// any skill folder that differ, which skillgit does not publish.
func (st Trees) Changes(baseRoot, headRoot gitstore.Hash) ([]Change, []string, error) {
	fd, outside, err := st.Diff(baseRoot, headRoot)
	if err != nil {
		return nil, nil, err
	}
	if outside {
		return fd.Changes, append([]string{"files outside " + st.dir + "/"}, fd.Stray...), nil
	}
	return fd.Changes, fd.Stray, nil
}

// Diff walks the skills folder of two root trees and reports whether anything outside it
// differs too.
func (st Trees) Diff(baseRoot, headRoot gitstore.Hash) (*Diff, bool, error) {
	b, err := FolderAt(st.g, baseRoot, st.dir)
	if err != nil {
		return nil, false, err
	}
	h, err := FolderAt(st.g, headRoot, st.dir)
	if err != nil {
		return nil, false, err
	}
	d, err := st.diffFolder(b, h)
	if err != nil {
		return nil, false, err
	}
	outside, err := st.outsideChanged(baseRoot, headRoot, b)
	return d, outside, err
}

// diffFolder compares two versions of the skills folder, given by their trees, as the ledger
// does, with paths from the repository's root.
func (st Trees) diffFolder(base, head gitstore.Hash) (*Diff, error) {
	changes, stray, err := ledger.DiffFolders(ledger.StoreOf(st.g), base, head)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", st.dir, err)
	}
	d := &Diff{}
	for _, c := range changes {
		d.Changes = append(d.Changes, Change{Path: path.Join(st.dir, c.Path), Base: c.Base, Head: c.Head})
	}
	for _, p := range stray {
		d.Stray = append(d.Stray, path.Join(st.dir, p))
	}
	return d, nil
}

// IsSkillPath reports whether p lies in the skills folder.
func (st Trees) IsSkillPath(p string) bool { return strings.HasPrefix(p, st.dir+"/") }

// DirEntry is the tree entry of folder h, or nil (a removal) when h is zero.
func DirEntry(h gitstore.Hash) *gitstore.TreeEntry {
	if h.IsZero() {
		return nil
	}
	return &gitstore.TreeEntry{Mode: filemode.Dir, Hash: h}
}

// outsideChanged reports whether anything outside the skills folder differs: the head with
// the base's skills folder put back must be the base.
func (st Trees) outsideChanged(baseRoot, headRoot, baseSkills gitstore.Hash) (bool, error) {
	same, err := st.g.Writes().ReplacePath(headRoot, st.dir, DirEntry(baseSkills))
	if err != nil || same == baseRoot || baseRoot.IsZero() {
		return false, err
	}
	return true, nil
}

// OutsidePaths names the files that differ between two root trees outside the skills folder.
func (st Trees) OutsidePaths(baseRoot, headRoot gitstore.Hash) ([]string, error) {
	b, err := TreeObject(st.g, baseRoot)
	if err != nil {
		return nil, err
	}
	h, err := TreeObject(st.g, headRoot)
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
		if !st.IsSkillPath(p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// TreeObject is tree h of g decoded; the empty tree when h is zero.
func TreeObject(g *gitstore.Repo, h gitstore.Hash) (*object.Tree, error) {
	if h.IsZero() {
		return &object.Tree{}, nil
	}
	return g.Git().TreeObject(h)
}

// MergeBaseTree is the tree of the best common ancestor of a and b (the empty tree if none).
func MergeBaseTree(g *gitstore.Repo, a, b gitstore.Hash) (gitstore.Hash, error) {
	base, err := g.History().MergeBase(a, b)
	if err != nil || base.IsZero() {
		return gitstore.ZeroHash, err
	}
	c, err := g.Objects().Commit(base)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	return c.TreeHash, nil
}

// FolderAt returns the tree of folder p in the root tree tree, or ZeroHash when there is none.
func FolderAt(g *gitstore.Repo, tree gitstore.Hash, p string) (gitstore.Hash, error) {
	if tree.IsZero() {
		return gitstore.ZeroHash, nil
	}
	e, ok, err := g.Objects().EntryAt(tree, p)
	if err != nil || !ok || e.Mode != filemode.Dir {
		return gitstore.ZeroHash, err
	}
	return e.Hash, nil
}
