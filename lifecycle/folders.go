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
}

func (f folderChange) name() string { return path.Base(f.path) }

// folderChanges lists the skill folders that differ between two root trees, and the paths
// outside any skill folder that differ, which skillgit does not publish.
func (r *Repo) folderChanges(baseRoot, headRoot gitstore.Hash) ([]folderChange, []string, error) {
	dir := r.Config.SkillsDir
	b, err := r.folderAt(baseRoot, dir)
	if err != nil {
		return nil, nil, err
	}
	h, err := r.folderAt(headRoot, dir)
	if err != nil {
		return nil, nil, err
	}
	fd := &folderDiff{g: r.Git}
	if err := fd.walk(dir, b, h, 0); err != nil {
		return nil, nil, err
	}
	outside, err := r.outsideChanged(baseRoot, headRoot, b)
	if err != nil {
		return nil, nil, err
	}
	return fd.changes, append(outside, fd.stray...), nil
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
func (r *Repo) outsideChanged(baseRoot, headRoot, baseSkills gitstore.Hash) ([]string, error) {
	same, err := r.Git.ReplacePath(headRoot, r.Config.SkillsDir, dirEntry(baseSkills))
	if err != nil || same == baseRoot || baseRoot.IsZero() {
		return nil, err
	}
	return []string{"files outside " + r.Config.SkillsDir + "/"}, nil
}

// folderDiff walks two versions of the skills folder.
type folderDiff struct {
	g       *gitstore.Repo
	changes []folderChange
	stray   []string
}

func (d *folderDiff) entries(h gitstore.Hash) ([]gitstore.TreeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	return d.g.ReadTree(h)
}

func (d *folderDiff) walk(p string, base, head gitstore.Hash, depth int) error {
	if base == head {
		return nil
	}
	be, err := d.entries(base)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	he, err := d.entries(head)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	if hasSkillFile(be) || hasSkillFile(he) || depth >= catalog.DefaultMaxDepth {
		d.changes = append(d.changes, folderChange{path: p, base: base, head: head})
		return nil
	}
	return d.children(p, be, he, depth)
}

func (d *folderDiff) children(p string, be, he []gitstore.TreeEntry, depth int) error {
	type pair struct{ b, h gitstore.TreeEntry }
	byName := map[string]*pair{}
	var names []string
	for _, side := range []struct {
		es   []gitstore.TreeEntry
		head bool
	}{{be, false}, {he, true}} {
		for _, e := range side.es {
			pp := byName[e.Name]
			if pp == nil {
				pp = &pair{}
				byName[e.Name] = pp
				names = append(names, e.Name)
			}
			if side.head {
				pp.h = e
			} else {
				pp.b = e
			}
		}
	}
	for _, n := range names {
		pp := byName[n]
		if pp.b == pp.h {
			continue
		}
		if isDirOrNone(pp.b) && isDirOrNone(pp.h) {
			if err := d.walk(path.Join(p, n), pp.b.Hash, pp.h.Hash, depth+1); err != nil {
				return err
			}
			continue
		}
		d.stray = append(d.stray, path.Join(p, n))
	}
	return nil
}

func isDirOrNone(e gitstore.TreeEntry) bool { return e.Hash.IsZero() || e.Mode == filemode.Dir }
