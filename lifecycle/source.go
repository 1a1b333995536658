package lifecycle

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/pathcheck"
	"github.com/skillgit/skillgit/lifecycle/skilltree"
)

// snapshots reads skill folders, from disk, from git or from memory, into snapshots for the
// repository r as its publish branch stands: where each goes and what it changes there.
type snapshots struct{ r *Repo }

// newSnapshots reads skill folders for r.
func newSnapshots(r *Repo) snapshots { return snapshots{r: r} }

// snapshot is a skill folder read from disk and written into git.
type snapshot struct {
	skill    *catalog.Skill
	tree     gitstore.Hash
	dest     string // the skill's folder in the repository
	change   Change
	old      gitstore.Hash // the published folder, zero for a new skill
	warnings []string
	// lenient holds the reference rules a new skill proposed with ProposeOptions.Lenient breaks.
	lenient []string
}

// sourceDir finds the folder to snapshot: --from, else PATH, else NAME's folder in the
// working tree.
func (sn snapshots) sourceDir(target, from string) (string, error) {
	r := sn.r
	if from != "" {
		return sn.existingDir(from)
	}
	if target == "" {
		return "", fmt.Errorf("name a skill folder, a skill, or --from DIR")
	}
	if dir, err := sn.existingDir(target); err == nil {
		return dir, nil
	}
	wt := r.git.WorktreeDir()
	if wt == "" || catalog.ValidateName(target) != nil {
		return "", fmt.Errorf("%s: no such folder; give the skill folder's path or --from DIR", target)
	}
	rel := path.Join(r.cfg.SkillsDir, target)
	if s, err := r.Published().Find(target); err == nil {
		rel = s.Dir
	}
	dir := filepath.Join(wt, filepath.FromSlash(rel))
	if st, err := os.Lstat(dir); err != nil || !st.IsDir() {
		return "", fmt.Errorf("%s: no folder %s in the working tree; write the skill there or pass --from DIR", target, rel)
	}
	return dir, nil
}

// existingDir resolves p against the folder skillgit runs in and requires a real folder.
func (sn snapshots) existingDir(p string) (string, error) {
	r := sn.r
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.dir, p)
	}
	st, err := os.Lstat(p)
	switch {
	case err != nil:
		return "", fmt.Errorf("%s: %w", p, errors.Unwrap(err))
	case st.Mode()&fs.ModeSymlink != 0:
		return "", fmt.Errorf("%s: is a symbolic link; name the folder itself", p)
	case !st.IsDir():
		if filepath.Base(p) == catalog.FileName {
			return filepath.Dir(p), nil
		}
		return "", fmt.Errorf("%s: not a folder", p)
	}
	return filepath.Clean(p), nil
}

// dir reads the skill in dir, validates it and writes it as a tree. want, when not
// empty, is the name the caller expects.
func (sn snapshots) dir(dir, want string) (*snapshot, error) {
	root, err := os.OpenRoot(filepath.Dir(dir))
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return sn.fs(root.FS(), filepath.Base(dir), dir, dir, want, false)
}

// fs reads the skill in folder base of fsys, validates it and writes it as a
// tree. label names the folder in errors; disk is its path on disk, empty for a folder in
// git. lenient admits a new skill that breaks only rules agents do not enforce, recording
// them in the snapshot.
func (sn snapshots) fs(fsys fs.FS, base, label, disk, want string, lenient bool) (*snapshot, error) {
	r := sn.r
	if err := pathcheck.Source(fsys, base, label); err != nil {
		return nil, err
	}
	sk, problems := catalog.Load(fsys, base, catalog.Lenient, false)
	if sk == nil {
		return nil, problemsError(label, problems)
	}
	if want != "" && sk.Name != want {
		return nil, fmt.Errorf("%s: the skill in %s is named %q, not %q", want, label, sk.Name, want)
	}
	if err := catalog.CheckSkillName(sk.Name); err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	snap := &snapshot{skill: sk}
	if err := sn.place(snap, disk); err != nil {
		return nil, err
	}
	if err := catalog.CheckPath(snap.dest); err != nil {
		return nil, pathcheck.Refuse(label, err)
	}
	if err := snap.strictCheck(fsys, base, disk != "", lenient); err != nil {
		return nil, err
	}
	var err error
	if snap.tree, err = r.git.Writes().WriteDir(fsys, base); err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	return snap, nil
}

// place decides where the skill goes and whether it is new; dir is the folder on
// disk it comes from, empty for one in git.
func (sn snapshots) place(snap *snapshot, dir string) error {
	r := sn.r
	name := snap.skill.Name
	inTree, inWorktree := "", false
	if dir != "" {
		inTree, inWorktree = r.git.WorktreePath(dir)
	}
	if inWorktree && !strings.HasPrefix(inTree, r.cfg.SkillsDir+"/") {
		inWorktree = false
	}
	published, err := r.Published().Find(name)
	switch {
	case errors.Is(err, ErrNotFound):
		snap.change, snap.dest = ChangeCreate, path.Join(r.cfg.SkillsDir, name)
		if inWorktree && path.Base(inTree) == name {
			snap.dest = inTree
		}
		return nil
	case err != nil:
		return err
	case inWorktree && inTree != published.Dir:
		return fmt.Errorf("%s: a skill of this name is already published at %s; a new skill needs a name of its own, or patch that one", name, published.Dir)
	}
	snap.change, snap.dest = ChangePatch, published.Dir
	snap.old, err = r.FolderAt(r.tree, published.Dir)
	return err
}

// strictCheck applies the reference rules to a new skill; a patch of a published skill is
// held to what agents load, with the rest as warnings. A folder on disk is checked as
// `skillgit validate` checks it, so a new skill whose name differs from its folder's is
// refused; a folder from git or memory (a pack, MCP) is stored under its skill's name,
// whatever it is called there.
func (s *snapshot) strictCheck(fsys fs.FS, base string, onDisk, lenient bool) error {
	_, problems := catalog.Load(fsys, base, catalog.Strict, false)
	var kept []catalog.Problem
	for _, p := range problems {
		if p.Warning || !onDisk && path.Base(base) != path.Base(s.dest) && strings.Contains(p.Message, "does not match its folder") {
			continue
		}
		kept = append(kept, p)
	}
	if len(kept) == 0 {
		return nil
	}
	if s.change == ChangeCreate && !lenient {
		return problemsError(base, kept)
	}
	for _, p := range kept {
		s.warnings = append(s.warnings, "warning: "+p.String())
		if lenient && s.change == ChangeCreate {
			s.lenient = append(s.lenient, p.String())
		}
	}
	return nil
}

func problemsError(dir string, ps []catalog.Problem) error {
	msgs := make([]string, 0, len(ps))
	for _, p := range ps {
		if !p.Warning {
			msgs = append(msgs, p.String())
		}
	}
	if len(msgs) == 0 {
		return fmt.Errorf("%s: not a loadable skill", dir)
	}
	return fmt.Errorf("%s: invalid skill; fix it and propose again:\n  %s", dir, strings.Join(msgs, "\n  "))
}

// deletion prepares the proposal to delete a published skill.
func (sn snapshots) deletion(name string) (*snapshot, error) {
	r := sn.r
	name = path.Base(filepath.ToSlash(name))
	s, err := r.Published().Find(name)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot propose deleting a skill that is not published: %w", name, ErrNotFound)
	}
	old, err := r.FolderAt(r.tree, s.Dir)
	if err != nil {
		return nil, err
	}
	return &snapshot{skill: s, dest: s.Dir, change: ChangeDelete, old: old}, nil
}

// entry is the tree entry that puts a snapshot in place, nil for a deletion.
func (s *snapshot) entry() *gitstore.TreeEntry { return skilltree.DirEntry(s.tree) }
