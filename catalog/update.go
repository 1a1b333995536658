package catalog

import (
	"cmp"
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// maxUpdated bounds how many changed folders Update takes on; past that Discover is as fast.
const maxUpdated = 200

// Update returns what Discover would return for fsys, given prev, its result for an earlier
// version of the same tree, and changed, the skill folders (slash paths relative to the
// root) that differ between the two: only those are read again. ok is false when the change
// is one Update does not follow — a folder that is hidden, too deep or no longer a skill, a
// name used twice before or after — and the caller must run Discover.
func Update(prev *Result, fsys fs.FS, changed []string, opts Options) (*Result, bool) {
	if len(changed) > maxUpdated || prev.hasDuplicates() {
		return nil, false
	}
	gone := map[string]bool{}
	for _, dir := range changed {
		if !followable(dir, opts) {
			return nil, false
		}
		gone[dir] = true
	}
	res := prev.without(gone)
	for _, dir := range changed {
		if !res.reload(fsys, dir, opts) {
			return nil, false
		}
	}
	res.resolveDuplicates(opts.Mode)
	if res.hasDuplicates() {
		return nil, false
	}
	slices.SortStableFunc(res.Problems, func(a, b Problem) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	slices.Sort(res.Folders)
	return res, true
}

// followable reports whether Discover would search folder dir as a skill.
func followable(dir string, opts Options) bool {
	parts := strings.Split(dir, "/")
	if !fs.ValidPath(dir) || dir == "." || len(parts) > opts.maxDepth() {
		return false
	}
	for _, p := range parts {
		if isHidden(p) {
			return false
		}
	}
	return true
}

// without copies r, leaving out every skill, problem and folder of the folders in gone.
func (r *Result) without(gone map[string]bool) *Result {
	out := &Result{}
	for _, s := range r.Skills {
		if !gone[s.Dir] {
			out.Skills = append(out.Skills, s)
		}
	}
	for _, p := range r.Problems {
		if !gone[p.File] && !gone[path.Dir(p.File)] {
			out.Problems = append(out.Problems, p)
		}
	}
	for _, f := range r.Folders {
		if !gone[f] {
			out.Folders = append(out.Folders, f)
		}
	}
	return out
}

// reload reads folder dir again: a skill now, or nothing when it was removed. ok is false
// when dir is there but holds no SKILL.md, which makes it a category to search.
func (r *Result) reload(fsys fs.FS, dir string, opts Options) bool {
	s, problems, there, ok := LoadChanged(fsys, dir, opts)
	if !ok || !there {
		return ok
	}
	r.Folders = append(r.Folders, dir)
	r.Problems = append(r.Problems, problems...)
	if s != nil {
		r.Skills = append(r.Skills, s)
	}
	return true
}

// LoadChanged reads folder dir of fsys again as Update does with a changed folder: the skill
// there now and its problems, or nothing (there is false) when the folder is gone. ok is
// false when Update would not follow the change (the folder holds no SKILL.md, so it is a
// category to search, or Discover would not search it) and the skills must be discovered.
func LoadChanged(fsys fs.FS, dir string, opts Options) (s *Skill, problems []Problem, there, ok bool) {
	if !followable(dir, opts) {
		return nil, nil, false, false
	}
	info, err := fs.Stat(fsys, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, false, true
	}
	if err != nil || !info.IsDir() {
		return nil, nil, false, false
	}
	if _, err := fs.Lstat(fsys, path.Join(dir, FileName)); err != nil {
		return nil, nil, false, false
	}
	s, problems = Load(fsys, dir, opts.Mode, opts.FrontmatterOnly)
	return s, problems, true, true
}

// hasDuplicates reports whether a name is used by two skills: which one agents load then
// depends on folders Update would not read again.
func (r *Result) hasDuplicates() bool {
	for _, p := range r.Problems {
		if isDuplicate(p) {
			return true
		}
	}
	return false
}
