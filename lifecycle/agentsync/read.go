package agentsync

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/published"
)

// unloadedFolders lists the folders of the skills that failed to load, as the error-level
// problems of a listing name them: a SKILL.md, or a folder that could not be listed.
func unloadedFolders(res *catalog.Result) []string {
	var dirs []string
	for _, p := range res.Problems {
		if p.Warning {
			continue
		}
		dir := p.File
		if path.Base(dir) == catalog.FileName {
			dir = path.Dir(dir)
		}
		if !slices.Contains(dirs, dir) {
			dirs = append(dirs, dir)
		}
	}
	return dirs
}

// recheckUnloaded makes sure that every skill folder that failed to load did so for what it
// holds, not because git could not read it. It reads each such folder whole: an unreadable
// object is an ErrUnreadableSkill naming the skill and the object. A folder that reads and
// now loads (its object was repaired since the listing was cached) is added to the skills.
func (src *source) recheckUnloaded(res *catalog.Result) ([]*catalog.Skill, error) {
	var found []*catalog.Skill
	for _, dir := range unloadedFolders(res) {
		if err := readFolder(src.fsys, dir); err != nil {
			src.hold(dir, unreadableSkill(dir, err), false)
			continue
		}
		if s, _ := catalog.Load(src.fsys, dir, catalog.Lenient, true); s != nil {
			found = append(found, s)
		}
	}
	return found, nil
}

// readable makes sure that git holds every file of the skill versions items name, before the
// audit reads them: to the audit a missing file is a finding, while here it is damage to the
// repository, or a partial clone that lacks it, which holds the skill as installed, with what
// to do about it. It looks the objects up without reading them; a stored object whose bytes
// are damaged fails the audit of its item, which holds it the same way. It returns the items
// whose objects are all there. Each item is looked up in its own tree, in objs, which is
// what the source shows at its folder, whether a channel's tree or the trees a lock pins.
func (src *source) readable(objs *gitstore.Objects, items []auditrun.Item) []auditrun.Item {
	var ok []auditrun.Item
	for _, it := range items {
		if err := gitstore.FirstMissingObject(objs.TreeFS(it.Tree), "."); err != nil {
			src.hold(it.Path, unreadableSkill(it.Path, err), false)
			continue
		}
		ok = append(ok, it)
	}
	return ok
}

// unreadableSkill is the ErrUnreadableSkill of the skill in folder dir, which git could not
// read because of err.
func unreadableSkill(dir string, err error) error {
	return fmt.Errorf("skill %s (%s) %w: %w; it was left as installed: run `git fsck` to find the damaged objects, restore them (such as by fetching from another clone), then sync again",
		path.Base(dir), dir, published.ErrUnreadableSkill, err)
}

// readFolder reads every entry below dir of fsys to its end, and returns the first error.
func readFolder(fsys fs.FS, dir string) error {
	return fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.Type()&fs.ModeSymlink != 0:
			_, err := fs.ReadLink(fsys, p)
			return err
		case !d.Type().IsRegular():
			return nil
		}
		f, err := fsys.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(io.Discard, f)
		return err
	})
}

// withFsckHint adds to an error that comes from a missing git object what to do about it.
func withFsckHint(err error) error {
	if err == nil || !errors.Is(err, plumbing.ErrObjectNotFound) {
		return err
	}
	return fmt.Errorf("%w; an object is missing from git: run `git fsck` to find the damage, restore it (such as by fetching from another clone), then sync again", err)
}
