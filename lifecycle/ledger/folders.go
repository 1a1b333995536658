package ledger

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
)

// FolderChange is a skill folder that differs between two versions of the repository; a
// zero hash means the folder is absent on that side.
type FolderChange struct {
	Path       string
	Base, Head gitstore.Hash
}

// Name is the skill's name: its folder's.
func (f FolderChange) Name() string { return path.Base(f.Path) }

// Diff is how two root trees differ: the skill folders, the paths inside the skills folder
// that belong to no skill, and whether anything outside the skills folder differs.
type Diff struct {
	Folders []FolderChange
	Stray   []string
	Outside bool
}

// DiffTrees compares two root trees of a repository whose skills live under skillsDir.
func DiffTrees(s Store, skillsDir string, baseRoot, headRoot gitstore.Hash) (*Diff, error) {
	b, err := folderAt(s, baseRoot, skillsDir)
	if err != nil {
		return nil, err
	}
	h, err := folderAt(s, headRoot, skillsDir)
	if err != nil {
		return nil, err
	}
	fd := &folderDiff{s: s}
	if err := fd.walk(skillsDir, b, h, 0); err != nil {
		return nil, err
	}
	outside := false
	if !baseRoot.IsZero() { // a first commit adds what it holds; nothing outside changed
		if outside, err = differsOutside(s, baseRoot, headRoot, strings.Split(skillsDir, "/")); err != nil {
			return nil, err
		}
	}
	return &Diff{Folders: fd.changes, Stray: fd.stray, Outside: outside}, nil
}

// FolderAt returns the tree of folder p in root tree root, or ZeroHash when there is none.
func FolderAt(s Store, root gitstore.Hash, p string) (gitstore.Hash, error) {
	return folderAt(s, root, p)
}

// folderAt reads the trees on the way undecoded: over a history, the skills folder of one
// commit after another is a large tree, each looked up for one entry.
func folderAt(s Store, root gitstore.Hash, p string) (gitstore.Hash, error) {
	tree := root
	for name := range strings.SplitSeq(p, "/") {
		if tree.IsZero() {
			return gitstore.ZeroHash, nil
		}
		if name == "" || name == "." {
			continue
		}
		t, err := s.ReadRawTree(tree)
		if err != nil {
			return gitstore.ZeroHash, err
		}
		e, ok, err := t.Entry(name)
		if err != nil || !ok || e.Mode != filemode.Dir {
			return gitstore.ZeroHash, err
		}
		tree = e.Hash
	}
	return tree, nil
}

// differsOutside reports whether two trees differ anywhere but below the folder whose path
// components are dir.
func differsOutside(s Store, base, head gitstore.Hash, dir []string) (bool, error) {
	if base == head {
		return false, nil
	}
	bt, err := s.ReadRawTree(base)
	if err != nil {
		return false, err
	}
	ht, err := s.ReadRawTree(head)
	if err != nil {
		return false, err
	}
	differs := false
	err = gitstore.DiffRawTrees(bt, ht, func(eb, eh gitstore.TreeEntry) error {
		name := eb.Name
		if name == "" {
			name = eh.Name
		}
		if name != dir[0] {
			differs = true
			return errStopDiff
		}
		if len(dir) == 1 {
			return nil
		}
		d, err := differsOutside(s, dirHash(eb), dirHash(eh), dir[1:])
		if d {
			differs = true
			return errStopDiff
		}
		return err
	})
	if err == errStopDiff {
		err = nil
	}
	return differs, err
}

// errStopDiff ends a tree comparison that has its answer.
var errStopDiff = fmt.Errorf("stop")

func dirHash(e gitstore.TreeEntry) gitstore.Hash {
	if e.Mode != filemode.Dir {
		return gitstore.ZeroHash
	}
	return e.Hash
}

// folderDiff walks two versions of the skills folder.
type folderDiff struct {
	s       Store
	changes []FolderChange
	stray   []string
}

func (d *folderDiff) walk(p string, base, head gitstore.Hash, depth int) error {
	if base == head {
		return nil
	}
	// The trees are compared as read, undecoded: a category folder of thousands of skills
	// of which one changed costs a scan of its bytes.
	bt, err := d.s.ReadRawTree(base)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	ht, err := d.s.ReadRawTree(head)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	skill, err := isSkillFolder(bt, ht)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	if skill || depth >= catalog.DefaultMaxDepth {
		d.changes = append(d.changes, FolderChange{Path: p, Base: base, Head: head})
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

// DiffFolders compares two versions of a skills folder by their trees: the skill folders that
// differ, with paths relative to the skills folder, and the paths that belong to no skill.
func DiffFolders(s Store, base, head gitstore.Hash) ([]FolderChange, []string, error) {
	fd := &folderDiff{s: s}
	err := fd.walk(".", base, head, 0)
	return fd.changes, fd.stray, err
}

// InFolder reports whether p is folder dir or lies below it.
func InFolder(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

// declaredScope lists what a candidate's trailers declare: for a skill candidate, the
// Skillgit-Path of its propose commit; for a policy candidate, each of its Skillgit-Path
// values that holds policy under the configuration of the publish branch. Later commits
// cannot widen it.
func (b *Book) DeclaredScope(ch *Chain) []string {
	if !ch.IsPolicy() {
		if p := ch.Path(); p != "" {
			return []string{p}
		}
		return nil
	}
	allowed := b.Config.PolicyPaths()
	var out []string
	for _, p := range ch.Propose().Claims.All(KeyPath) {
		if slices.Contains(allowed, p) && !slices.Contains(out, p) && !InFolder(p, b.Config.SkillsDir) {
			out = append(out, p)
		}
	}
	return out
}

// entryAt is the entry at path p of a root tree; zero when there is none.
func (b *Book) EntryAt(tree gitstore.Hash, p string) (gitstore.TreeEntry, error) {
	if tree.IsZero() {
		return gitstore.TreeEntry{}, nil
	}
	e, ok, err := b.Git.EntryAt(tree, p)
	if err != nil || !ok {
		return gitstore.TreeEntry{}, err
	}
	return gitstore.TreeEntry{Mode: e.Mode, Hash: e.Hash}, nil
}

// scopeKey identifies what a candidate's declared paths hold in tree, so that two trees with
// the same key hold the same candidate content.
func (b *Book) ScopeKey(ch *Chain, tree gitstore.Hash) (string, error) {
	if !ch.IsPolicy() {
		h, err := b.FolderAt(tree, ch.Path())
		return h.String(), err
	}
	var key strings.Builder
	for _, p := range b.DeclaredScope(ch) {
		e, err := b.EntryAt(tree, p)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&key, "%s %o %s\n", p, uint32(e.Mode), e.Hash)
	}
	return key.String(), nil
}
