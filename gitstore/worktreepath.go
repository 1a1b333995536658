package gitstore

import (
	"io/fs"
	"path/filepath"
	"strings"
)

// WorktreePath returns the slash path of the folder or file abs relative to the top of the
// working tree, symbolic links resolved on both sides; ok is false when abs is outside the
// working tree, cannot be resolved, or the repository has none.
func (r *Repo) WorktreePath(abs string) (string, bool) {
	if r.WorktreeDir() == "" {
		return "", false
	}
	wt, err1 := filepath.EvalSymlinks(r.WorktreeDir())
	real, err2 := filepath.EvalSymlinks(abs)
	if err1 != nil || err2 != nil {
		return "", false
	}
	rel, err := filepath.Rel(wt, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || !fs.ValidPath(filepath.ToSlash(rel)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
