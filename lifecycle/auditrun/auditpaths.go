package auditrun

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// planPaths plans an audit of folders on disk: the request's, or the skills folder.
func planPaths(r *Runner, req Request) (*auditPlan, error) {
	paths, title := req.Paths, strings.Join(req.Paths, ", ")
	if len(paths) == 0 {
		paths = []string{defaultAuditPath(r, req.Dir)}
		title = shownPath(r, paths[0], paths[0])
	}
	p := &auditPlan{policy: policy.DefaultAuditPolicy(), title: title}
	for _, path := range paths {
		items, err := folderItems(r, req.Dir, path)
		if err != nil {
			return nil, err
		}
		p.items = append(p.items, items...)
	}
	if r == nil {
		return p, nil
	}
	label, commit := gitstore.ShortRef(r.Branch), r.Tip
	if req.Base != "" {
		var tree gitstore.Hash
		var err error
		if commit, tree, err = r.resolve(req.Base); err != nil {
			return nil, err
		}
		if err := r.attachBase(p.items, tree, req.Base); err != nil {
			return nil, err
		}
		label = req.Base
		p.title += " against " + req.Base
	}
	var err error
	p.policy, err = r.PolicyAt(commit, label)
	return p, err
}

// defaultAuditPath is the repository's skills folder in the working tree, else ./skills when
// it exists, else the folder itself.
func defaultAuditPath(r *Runner, dir string) string {
	if r != nil {
		return filepath.Join(r.Git.WorktreeDir(), filepath.FromSlash(r.Config.SkillsDir))
	}
	if st, err := os.Stat(filepath.Join(dir, "skills")); err == nil && st.IsDir() {
		return filepath.Join(dir, "skills")
	}
	return dir
}

// folderItems finds the skill folders of path: the folder itself when it holds a SKILL.md,
// else every skill folder below it, loadable or not.
func folderItems(r *Runner, dir, path string) ([]Item, error) {
	full := path
	if !filepath.IsAbs(path) {
		full = filepath.Join(dir, path)
	}
	full, err := filepath.Abs(full)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	st, err := os.Stat(full)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %w", path, errors.Unwrap(err))
	case !st.IsDir() && filepath.Base(full) == catalog.FileName:
		full, path = filepath.Dir(full), filepath.Dir(path)
	case !st.IsDir():
		return nil, fmt.Errorf("%s: not a skill folder, a %s or a folder of skills", path, catalog.FileName)
	}
	folders, err := skillFolders(full, path)
	if err != nil {
		return nil, err
	}
	items := make([]Item, 0, len(folders))
	for _, f := range folders {
		abs := filepath.Join(full, filepath.FromSlash(f))
		items = append(items, Item{Name: filepath.Base(abs), Path: shownPath(r, abs, filepath.Join(path, f)), Dir: abs})
	}
	return items, nil
}

// skillFolders lists the folders with a SKILL.md at or below full, relative to it.
func skillFolders(full, shown string) ([]string, error) {
	root, err := os.OpenRoot(full)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", shown, errors.Unwrap(err))
	}
	defer root.Close()
	res, err := catalog.Discover(root.FS(), ".", catalog.Options{Mode: catalog.Lenient, FrontmatterOnly: true})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", shown, err)
	}
	if len(res.Folders) == 0 {
		return nil, catalog.NoSkillsError(shown)
	}
	return res.Folders, nil
}

// shownPath is the repository path of a folder in the working tree, else the path the user
// gave.
func shownPath(r *Runner, abs, given string) string {
	if rel, ok := repoPath(r, abs); ok {
		return rel
	}
	return filepath.ToSlash(filepath.Clean(given))
}

// repoPath returns the slash path of abs relative to the working tree; ok is false when abs is
// outside it or there is none.
func repoPath(r *Runner, abs string) (string, bool) {
	if r == nil {
		return "", false
	}
	return r.Git.WorktreePath(abs)
}

// attachBase sets each item's base to its folder in the root tree tree, where there is one.
func (r *Runner) attachBase(items []Item, tree gitstore.Hash, label string) error {
	for i := range items {
		rel, ok := repoPath(r, items[i].Dir)
		if !ok {
			return fmt.Errorf("%s: --base compares folders of the repository's working tree, and this one is outside it", items[i].Path)
		}
		e, found, err := r.Git.Objects().EntryAt(tree, rel)
		if err != nil {
			return fmt.Errorf("%s:%s: %w", label, rel, err)
		}
		if found && e.Mode == filemode.Dir {
			items[i].Base, items[i].BaseLabel = e.Hash, label
		}
	}
	return nil
}
