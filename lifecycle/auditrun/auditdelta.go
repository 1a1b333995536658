package auditrun

import (
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
)

// A skills folder that changed is audited from the whole result of a version of it before the
// change. Git gives every folder a tree id, so comparing the two versions reads only the
// folders on the way to what changed, and every skill in a folder whose id stayed the same
// keeps its report: the cost follows the change and its depth, not the number of skills.

// since audits the folder from the whole result the cache holds for an earlier version of it.
// ok is false when there is none, or the two versions cannot be compared; the caller then
// audits every skill.
func (w *wholeFolder) since(a *Auditor) (reports []audit.SkillReport, ok bool, err error) {
	prev, ok := a.Cache.LatestAll(w.path, a.policyHash())
	if !ok || !slices.IsSortedFunc(prev.Reports, byPath) {
		return nil, false, nil
	}
	drop, scanned, ok, err := w.changedSince(a, prev.Root)
	if !ok || err != nil {
		return nil, ok, err
	}
	reports = patch(prev.Reports, drop, scanned)
	// A result that cannot be stored is only a later cache miss.
	_ = a.Cache.PutAllSince(w.tree.String(), w.path, a.policyHash(), reports, prev)
	return reports, true, nil
}

// changedSince compares the folder with its version whose tree object id is root, and audits
// the skills that changed since. drop are the folders whose earlier results no longer hold,
// and scanned the reports of the skills audited. ok is false when the two versions cannot be
// compared.
func (w *wholeFolder) changedSince(a *Auditor, root string) (drop []string, scanned []audit.SkillReport, ok bool, err error) {
	if !plumbing.IsHash(root) {
		return nil, nil, false, nil
	}
	d := folderDelta{objs: a.Git.Objects()}
	if !d.compare(w.path, plumbing.NewHash(root), w.tree) {
		return nil, nil, false, nil
	}
	scanned, err = a.Run(d.items)
	return d.drop, scanned, true, err
}

// folderDelta is what changed between two versions of a skills folder, as the audit lists
// skills (catalog.Discover): the folders whose earlier reports no longer hold, and the skills
// to audit.
type folderDelta struct {
	objs *gitstore.Objects
	// drop are folders whose earlier reports, of the folder itself and of every folder
	// below it, are left out.
	drop []string
	// items are the skills to audit.
	items []Item
}

// compare compares the versions old and head of the skills folder at dir. It is false when
// the trees cannot be read, or when either version is itself a skill, which Discover lists
// apart.
func (d *folderDelta) compare(dir string, old, head gitstore.Hash) bool {
	ot, oldSkill, err := d.read(old)
	if err != nil || oldSkill {
		return false
	}
	ht, headSkill, err := d.read(head)
	if err != nil || headSkill {
		return false
	}
	return d.walk(dir, ot, ht, 0) == nil
}

// walk compares the two versions of the category folder p, depth levels below the skills
// folder. Discover searches folders down to catalog.DefaultMaxDepth levels and no further, so
// what lies deeper is no skill in either version.
func (d *folderDelta) walk(p string, old, head gitstore.RawTree, depth int) error {
	if depth >= catalog.DefaultMaxDepth {
		return nil
	}
	return gitstore.DiffRawTrees(old, head, func(eo, eh gitstore.TreeEntry) error {
		name := eh.Name
		if name == "" {
			name = eo.Name
		}
		if strings.HasPrefix(name, ".") {
			// Discover never searches a hidden folder.
			return nil
		}
		return d.entry(path.Join(p, name), eo, eh, depth+1)
	})
}

// entry compares the versions eo and eh of the entry p, which differ; either may be missing
// or not a folder.
func (d *folderDelta) entry(p string, eo, eh gitstore.TreeEntry, depth int) error {
	if !isFolder(eh) {
		d.drop = append(d.drop, p)
		return nil
	}
	head, headSkill, err := d.read(eh.Hash)
	if err != nil {
		return err
	}
	if headSkill {
		d.drop = append(d.drop, p)
		d.items = append(d.items, Item{Name: path.Base(p), Path: p, Tree: eh.Hash})
		return nil
	}
	var old gitstore.RawTree
	if isFolder(eo) {
		ot, oldSkill, err := d.read(eo.Hash)
		if err != nil {
			return err
		}
		if !oldSkill {
			old = ot
		}
	}
	if old.ID().IsZero() {
		// Nothing of the earlier version holds for a folder that was no category.
		d.drop = append(d.drop, p)
	}
	return d.walk(p, old, head, depth)
}

// read reads tree h undecoded, and whether it holds a SKILL.md, of any kind, which makes its
// folder a skill.
func (d *folderDelta) read(h gitstore.Hash) (gitstore.RawTree, bool, error) {
	t, err := d.objs.ReadRawTree(h)
	if err != nil {
		return t, false, err
	}
	skill, err := t.Has(catalog.FileName)
	return t, skill, err
}

// isFolder reports whether e is a folder Discover may search: a tree, not a link or a
// submodule.
func isFolder(e gitstore.TreeEntry) bool {
	return e.Mode == filemode.Dir
}

// patch returns prev, in path order, without the reports of the folders of drop and of every
// folder below them, and with scanned merged in.
func patch(prev []audit.SkillReport, drop []string, scanned []audit.SkillReport) []audit.SkillReport {
	gone := make([]bool, len(prev))
	for _, p := range drop {
		if i, found := slices.BinarySearchFunc(prev, p, pathCmp); found {
			gone[i] = true
		}
		i, _ := slices.BinarySearchFunc(prev, p+"/", pathCmp)
		for ; i < len(prev) && strings.HasPrefix(prev[i].Path, p+"/"); i++ {
			gone[i] = true
		}
	}
	slices.SortFunc(scanned, byPath)
	out := make([]audit.SkillReport, 0, len(prev)+len(scanned))
	for i, r := range prev {
		if gone[i] {
			continue
		}
		for len(scanned) > 0 && scanned[0].Path < r.Path {
			out, scanned = append(out, scanned[0]), scanned[1:]
		}
		out = append(out, r)
	}
	return append(out, scanned...)
}

func byPath(a, b audit.SkillReport) int { return strings.Compare(a.Path, b.Path) }

func pathCmp(r audit.SkillReport, p string) int { return strings.Compare(r.Path, p) }
