package lifecycle

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillgit/skillgit/gitstore"
)

// StagedScope widens the pre-commit check beyond the skills a commit touches. The pre-commit
// framework passes the files a run covers (every tracked file under `pre-commit run
// --all-files`, which is how CI runs it); the skills holding them are audited whole, as the
// index has them, so a malicious skill committed earlier is caught too.
type StagedScope struct {
	// All audits every skill the index holds.
	All bool
	// Files are paths relative to the folder the hook runs in; the skill folder of each one
	// that lies in the skills folder is audited. Paths outside a skill folder are ignored.
	Files []string
}

func (s StagedScope) empty() bool { return !s.All && len(s.Files) == 0 }

// title says what the check audited, for the report.
func (s StagedScope) title() string {
	switch {
	case s.All:
		return "every staged skill"
	case len(s.Files) > 0:
		return fmt.Sprintf("staged changes and the skills of %d file(s)", len(s.Files))
	}
	return "staged changes"
}

// widenStaged adds to changes every staged skill folder that scope names, each compared with
// its version in baseTree, and returns the folders in path order.
func (r *Repo) widenStaged(dir string, scope StagedScope, changes []folderChange, baseTree, staged gitstore.Hash) ([]folderChange, error) {
	all := &folderDiff{g: r.Git}
	if err := all.walk(r.Config.SkillsDir, gitstore.ZeroHash, staged, 0); err != nil {
		return nil, err
	}
	wanted, err := r.scopeMatcher(dir, scope)
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, c := range changes {
		have[c.path] = true
	}
	for _, f := range all.changes {
		if have[f.path] || !wanted(f.path) {
			continue
		}
		if f.base, err = r.folderAt(baseTree, f.path); err != nil {
			return nil, err
		}
		changes = append(changes, f)
	}
	slices.SortFunc(changes, func(a, b folderChange) int { return strings.Compare(a.path, b.path) })
	return changes, nil
}

// scopeMatcher reports which skill folders, by repository path, scope names.
func (r *Repo) scopeMatcher(dir string, scope StagedScope) (func(string) bool, error) {
	if scope.All {
		return func(string) bool { return true }, nil
	}
	prefix, err := r.dirPrefix(dir)
	if err != nil {
		return nil, err
	}
	files := make([]string, 0, len(scope.Files))
	for _, f := range scope.Files {
		files = append(files, path.Join(prefix, filepath.ToSlash(f)))
	}
	return func(folder string) bool {
		return slices.ContainsFunc(files, func(f string) bool { return strings.HasPrefix(f, folder+"/") })
	}, nil
}

// dirPrefix is the slash path of dir relative to the top of the working tree ("" at the top),
// which turns the file names a hook is given into repository paths.
func (r *Repo) dirPrefix(dir string) (string, error) {
	top := r.Git.WorktreeDir()
	if top == "" {
		return "", fmt.Errorf("file names need a working tree; run the hook in a checkout")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	real, err1 := filepath.EvalSymlinks(abs)
	realTop, err2 := filepath.EvalSymlinks(top)
	if err1 != nil || err2 != nil {
		return "", fmt.Errorf("%s: cannot resolve the folder the hook runs in: %v", dir, errors.Join(err1, err2))
	}
	rel, err := filepath.Rel(realTop, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s: not inside the working tree %s", dir, top)
	}
	if rel == "." {
		return "", nil
	}
	return filepath.ToSlash(rel), nil
}
