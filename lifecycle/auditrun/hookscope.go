package auditrun

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
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

// widenStaged adds to changes every skill folder of the staged root tree that scope names,
// each compared with its version in baseTree, and returns the folders in path order.
func (r *Runner) widenStaged(dir string, scope StagedScope, changes []ledger.FolderChange, baseTree, staged gitstore.Hash) ([]ledger.FolderChange, error) {
	named, err := r.scopeFolders(dir, scope, staged)
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, c := range changes {
		have[c.Path] = true
	}
	for _, f := range named {
		if have[f.Path] {
			continue
		}
		have[f.Path] = true
		if f.Base, err = ledger.FolderAt(ledger.StoreOf(r.Git), baseTree, f.Path); err != nil {
			return nil, err
		}
		changes = append(changes, f)
	}
	slices.SortFunc(changes, func(a, b ledger.FolderChange) int { return strings.Compare(a.Path, b.Path) })
	return changes, nil
}

// scopeFolders lists the skill folders of the staged root tree that scope names, found as the
// pre-commit check finds changed ones: every one for All, else the folder of each file,
// reached by reading only the trees on the file's path.
func (r *Runner) scopeFolders(dir string, scope StagedScope, staged gitstore.Hash) ([]ledger.FolderChange, error) {
	if scope.All {
		d, err := ledger.DiffTrees(ledger.StoreOf(r.Git), r.Config.SkillsDir, gitstore.ZeroHash, staged)
		if err != nil {
			return nil, err
		}
		return d.Folders, nil
	}
	prefix, err := r.dirPrefix(dir)
	if err != nil {
		return nil, err
	}
	skills, err := ledger.FolderAt(ledger.StoreOf(r.Git), staged, r.Config.SkillsDir)
	if err != nil {
		return nil, err
	}
	fw := &folderWalker{g: r.Git, root: r.Config.SkillsDir, trees: map[gitstore.Hash][]gitstore.TreeEntry{}}
	var out []ledger.FolderChange
	for _, f := range scope.Files {
		p, h, err := fw.folderOf(skills, path.Join(prefix, filepath.ToSlash(f)))
		if err != nil {
			return nil, err
		}
		if p != "" {
			out = append(out, ledger.FolderChange{Path: p, Head: h})
		}
	}
	return out, nil
}

// folderWalker finds the skill folder a file lies in, reading each tree once.
type folderWalker struct {
	g     *gitstore.Repo
	root  string // the skills folder
	trees map[gitstore.Hash][]gitstore.TreeEntry
}

func (w *folderWalker) entries(h gitstore.Hash) ([]gitstore.TreeEntry, error) {
	if e, ok := w.trees[h]; ok {
		return e, nil
	}
	e, err := w.g.Objects().ReadTree(h)
	w.trees[h] = e
	return e, err
}

// folderOf returns the path and tree of the skill folder that holds file (a repository path)
// in the skills folder tree root: the first folder on the way down with a SKILL.md, or the
// one at the depth where the pre-commit check stops looking. The path is empty when file is
// not in a skill folder.
func (w *folderWalker) folderOf(root gitstore.Hash, file string) (string, gitstore.Hash, error) {
	rel, ok := strings.CutPrefix(file, w.root+"/")
	if !ok || root.IsZero() {
		return "", gitstore.ZeroHash, nil
	}
	parts := strings.Split(rel, "/")
	p, h := w.root, root
	for depth := 0; ; depth++ {
		entries, err := w.entries(h)
		if err != nil {
			return "", gitstore.ZeroHash, fmt.Errorf("%s: %w", p, err)
		}
		if hasSkillFile(entries) || depth >= catalog.DefaultMaxDepth {
			return p, h, nil
		}
		if depth >= len(parts)-1 {
			return "", gitstore.ZeroHash, nil
		}
		i := slices.IndexFunc(entries, func(e gitstore.TreeEntry) bool { return e.Name == parts[depth] && e.Mode == filemode.Dir })
		if i < 0 {
			return "", gitstore.ZeroHash, nil
		}
		p, h = path.Join(p, parts[depth]), entries[i].Hash
	}
}

// dirPrefix is the slash path of dir relative to the top of the working tree ("" at the top),
// which turns the file names a hook is given into repository paths.
func (r *Runner) dirPrefix(dir string) (string, error) {
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
