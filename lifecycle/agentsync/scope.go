package agentsync

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillgit/skillgit/lifecycle"
)

// ownTreeRefusal is the error of a target that would put skills into the skill repository's
// own tree, at where; what says which target.
func ownTreeRefusal(what, where string) error {
	return fmt.Errorf("%s: sync never installs into the skill repository itself (%s); run `skillgit sync` in the application project, with a %s at its top naming this repository, or pass --project DIR to install into the project at DIR, or --global for the agents' global folders",
		what, where, SyncFileName)
}

// checkInstallFolder refuses a target inside the skill repository (its working tree or its
// git folder) and one inside the skills folder of any skillgit repository, such as an
// application project that is a skill repository too.
func (r *repo) checkInstallFolder(t Target) error {
	if err := r.checkProjectLinks(t); err != nil {
		return err
	}
	dir := resolved(t.Dir)
	if wt := r.Git().WorktreeDir(); wt != "" && within(dir, resolved(wt)) {
		return ownTreeRefusal("target "+t.Label+" ("+t.Dir+")", wt)
	}
	if cd := r.Git().CommonDir(); cd != "" && within(dir, resolved(cd)) {
		return ownTreeRefusal("target "+t.Label+" ("+t.Dir+")", cd)
	}
	top, ok := enclosingTop(dir)
	if !ok {
		return nil
	}
	other, err := lifecycle.Open(top)
	if err != nil {
		return nil
	}
	defer other.Close()
	skills := resolved(filepath.Join(top, filepath.FromSlash(other.Config().SkillsDir)))
	if within(dir, skills) {
		return fmt.Errorf("target %s (%s) lies in the skills folder of the skillgit repository %s, which skillgit keeps in git; install for another agent, or name a folder with --dir", t.Label, t.Dir, top)
	}
	return nil
}

// checkProjectLinks refuses a target inside the application project that is, or lies below,
// a symbolic link leading out of the project: a link committed in the project, such as
// .claude/skills -> ../../elsewhere, would have sync write wherever it points. A link that
// points nowhere yet is judged by where it points, since creating the target would follow it.
func (r *repo) checkProjectLinks(t Target) error {
	if r.project == "" || !within(t.Dir, r.project) {
		return nil
	}
	top := resolved(r.project)
	rel, err := filepath.Rel(r.project, t.Dir)
	if err != nil || rel == "." {
		return nil
	}
	d := r.project
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		d = filepath.Join(d, part)
		fi, err := os.Lstat(d)
		if err != nil {
			return nil
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		dest, err := os.Readlink(d)
		if err != nil {
			return fmt.Errorf("target %s (%s): %w", t.Label, t.Dir, err)
		}
		to := dest
		if !filepath.IsAbs(to) {
			to = filepath.Join(resolved(filepath.Dir(d)), to)
		}
		if !within(resolved(to), top) {
			return fmt.Errorf("target %s (%s): %s is a symbolic link to %s, which leads out of the project %s; sync writes only inside the project: replace the link with a folder, or point it inside the project",
				t.Label, t.Dir, d, dest, r.project)
		}
	}
	return nil
}

// enclosingTop is the nearest folder at or above dir that holds .git.
func enclosingTop(dir string) (string, bool) {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}

// within reports whether path is root or lies below it; both are clean and absolute.
func within(path, root string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// resolved is p with the links of its longest existing part followed, so that a folder
// reached through a link compares equal to itself.
func resolved(p string) string {
	p = filepath.Clean(p)
	var rest []string
	for d := p; ; {
		if real, err := filepath.EvalSymlinks(d); err == nil {
			return filepath.Join(append([]string{real}, rest...)...)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return p
		}
		parent := filepath.Dir(d)
		if parent == d {
			return p
		}
		rest = append([]string{filepath.Base(d)}, rest...)
		d = parent
	}
}
