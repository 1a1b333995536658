package published

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Where an installed skill sits, as InstalledSkill.Scope reports it.
const (
	ScopeProject = "project"
	ScopeGlobal  = "global"
)

// SkillsDirsEnv names the environment variable that, like --skills-dir, lists the only folders
// installed skills are read from, separated by os.PathListSeparator.
const SkillsDirsEnv = "SKILLGIT_SKILLS_DIRS"

// installedFolders are the folders agents install skills into, project and global alike, in
// the order they are read: the first skill of a name wins.
var agentFolders = []string{".agent/skills", ".agents/skills", ".claude/skills"}

// InstalledOptions says where installed skills are looked for.
type InstalledOptions struct {
	// Dir is the folder the command runs in; the project is the git work tree around it, or
	// Dir itself outside git.
	Dir string
	// Home is the user's home folder; "" leaves the global folders out.
	Home string
	// SkillsDirs, when not empty, are the only folders read, in order.
	SkillsDirs []string
}

// InstalledFolder is one folder installed skills are read from.
type InstalledFolder struct {
	// Path is the absolute folder.
	Path string
	// Scope is ScopeProject for a folder inside the project, else ScopeGlobal.
	Scope string
}

// InstalledFolders lists the folders installed skills are read from, in order: o.SkillsDirs
// when given, else the project's .agent/skills, .agents/skills and .claude/skills, then the
// same three in the home folder. A folder listed twice (the project is the home folder, or
// a link leads to an earlier one) is read once, where it comes first.
func InstalledFolders(o InstalledOptions) ([]InstalledFolder, error) {
	list, err := installedFolders(o)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	out := list[:0]
	for _, f := range list {
		key := f.Path
		if real, err := filepath.EvalSymlinks(f.Path); err == nil {
			key = real
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, f)
		}
	}
	return out, nil
}

func installedFolders(o InstalledOptions) ([]InstalledFolder, error) {
	dir, err := filepath.Abs(o.Dir)
	if err != nil {
		return nil, err
	}
	project := ProjectRoot(dir)
	if len(o.SkillsDirs) > 0 {
		out := make([]InstalledFolder, 0, len(o.SkillsDirs))
		for _, d := range o.SkillsDirs {
			if !filepath.IsAbs(d) {
				d = filepath.Join(dir, d)
			}
			out = append(out, InstalledFolder{Path: filepath.Clean(d), Scope: scopeOf(d, project)})
		}
		return out, nil
	}
	var out []InstalledFolder
	for _, rel := range agentFolders {
		out = append(out, InstalledFolder{Path: filepath.Join(project, filepath.FromSlash(rel)), Scope: ScopeProject})
	}
	if o.Home != "" {
		for _, rel := range agentFolders {
			out = append(out, InstalledFolder{Path: filepath.Join(o.Home, filepath.FromSlash(rel)), Scope: ScopeGlobal})
		}
	}
	return out, nil
}

// SplitSkillsDirs splits the value of SkillsDirsEnv into folders, dropping empty ones.
func SplitSkillsDirs(v string) []string {
	var out []string
	for _, d := range filepath.SplitList(v) {
		if strings.TrimSpace(d) != "" {
			out = append(out, d)
		}
	}
	return out
}

// ProjectRoot returns the work tree of the git repository around dir (an absolute folder), or
// dir itself when it is in none.
func ProjectRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return dir
		}
		d = up
	}
}

// scopeOf is ScopeProject for a folder inside project, else ScopeGlobal.
func scopeOf(dir, project string) string {
	rel, err := filepath.Rel(project, dir)
	if err == nil && filepath.IsLocal(rel) {
		return ScopeProject
	}
	return ScopeGlobal
}

// insideFolder resolves the symbolic link at link, which sits in the skills folder root, and
// returns its target relative to root; ok is false when the target leads out of root or
// cannot be resolved.
func insideFolder(root, link string) (rel string, ok bool) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", false
	}
	target, err := filepath.EvalSymlinks(link)
	if err != nil {
		return "", false
	}
	rel, err = filepath.Rel(realRoot, target)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// existingFolder reports whether dir is a folder; a missing one is no error.
func existingFolder(dir string) (bool, error) {
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, err
	case !info.IsDir():
		return false, fmt.Errorf("%s: not a folder", dir)
	}
	return true, nil
}
