package agentsync

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
)

// openRepo opens the skill repository a request reads and finds the project it installs
// into: with Project, the skill repository at or above Dir and that folder; else, when a
// sync file lies at or above Dir, the repository it names and its folder; else the skill
// repository at or above Dir, with no project.
// A Project that names an application project, where Dir is in no skill repository (doctor
// --project . run in the project itself), is read as that application project.
func openRepo(req Request) (*repo, error) {
	dir, err := filepath.Abs(req.Dir)
	if err != nil {
		return nil, err
	}
	start := dir
	if req.Project != "" {
		r, err := openForProject(dir, req)
		proj := projectOfNoRepository(err, dir, req)
		if proj == "" {
			return r, err
		}
		start = proj
	}
	file, found, err := FindSyncFile(start)
	if err != nil {
		return nil, err
	}
	if !found {
		lr, err := lifecycle.Open(dir)
		if err != nil {
			return nil, withSyncFileHint(err)
		}
		return &repo{Repo: lr, dir: dir}, nil
	}
	sf, err := ReadSyncFile(file)
	if err != nil {
		return nil, err
	}
	lr, clone, warnings, err := openNamed(sf, filepath.Dir(file), req)
	if err != nil {
		return nil, fmt.Errorf("%s: repository %s: %w", file, sf.Repository, err)
	}
	r := &repo{Repo: lr, dir: dir, project: filepath.Dir(file), sync: sf, syncPath: file, appMode: true, clone: clone, warnings: warnings}
	if IsGitURL(sf.Repository) {
		r.url = sf.Repository
	}
	return r, nil
}

// projectOfNoRepository is the folder of req.Project when err says that dir is in no skill
// repository and that folder is an application project, with its sync file at its top;
// else empty.
func projectOfNoRepository(err error, dir string, req Request) string {
	if !noSkillRepository(err) {
		return ""
	}
	proj, perr := absFolder(req.Project, dir, req.Getenv)
	if perr != nil {
		return ""
	}
	if _, serr := os.Lstat(filepath.Join(proj, SyncFileName)); serr != nil {
		return ""
	}
	return proj
}

// noSkillRepository reports an error of lifecycle.Open that finds no skill repository: no
// git repository, or one skillgit has not adopted.
func noSkillRepository(err error) bool {
	return errors.Is(err, gitstore.ErrNotRepository) || errors.Is(err, lifecycle.ErrNotInitialized)
}

// withSyncFileHint adds to the error of a folder that is no skill repository how an
// application project names one.
func withSyncFileHint(err error) error {
	if !noSkillRepository(err) {
		return err
	}
	return fmt.Errorf("%w; to install skills into an application project, add a %s at its top naming the skill repository (repository: PATH-OR-URL, agents: [...])", err, SyncFileName)
}

// openNamed opens the skill repository the sync file sf in folder base names: a local path
// relative to base, or a URL read through its cached clone, whose mutex is then returned, held,
// and which fetches what req reads (see readPlan).
// The publish branch is the one sf or the project's lock names (see namedBranch); else, for a
// URL, the one the repository's HEAD names, with a warning when main claims otherwise, and for
// a local repository its own (skillgit.publishBranch, main, HEAD).
func openNamed(sf *SyncFile, base string, req Request) (*lifecycle.Repo, *cloneMutex, []string, error) {
	b := namedBranch(sf, base)
	if !IsGitURL(sf.Repository) {
		p := sf.Repository
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, p)
		}
		if b.name == "" {
			lr, err := lifecycle.Open(p)
			return lr, nil, nil, err
		}
		lr, err := b.open(p)
		return lr, nil, nil, err
	}
	dir, clone, note, err := cachedClone(sf.Repository, req.Offline, &readPlan{sf: sf, project: base, req: req})
	if err != nil {
		return nil, nil, nil, err
	}
	if b.name == "" {
		b, err = headBranch(dir)
	}
	var lr *lifecycle.Repo
	if err == nil {
		lr, err = b.open(dir)
	}
	if err != nil {
		clone.release()
		return nil, nil, nil, err
	}
	var warnings []string
	for _, w := range []string{note, rivalMainWarning(lr, b, sf.Repository)} {
		if w != "" {
			warnings = append(warnings, w)
		}
	}
	return lr, clone, warnings, nil
}

// openForProject opens the skill repository at dir to install into the project folder
// req.Project, whose sync file, if any, must name this repository.
func openForProject(dir string, req Request) (*repo, error) {
	lr, err := lifecycle.Open(dir)
	if err != nil {
		return nil, err
	}
	r := &repo{Repo: lr, dir: dir}
	proj, err := absFolder(req.Project, dir, req.Getenv)
	if err == nil {
		err = r.setProject(proj, req.Project)
	}
	if err != nil {
		lr.Close()
		return nil, err
	}
	return r, nil
}

// setProject makes proj the project of r, reading its sync file when it has one.
func (r *repo) setProject(proj, given string) error {
	fi, err := os.Stat(proj)
	if err != nil || !fi.IsDir() {
		return fmt.Errorf("--project %s: not a folder (%v); name the application project's top folder", given, err)
	}
	r.project = proj
	file := filepath.Join(proj, SyncFileName)
	if _, err := os.Lstat(file); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	sf, err := ReadSyncFile(file)
	if err != nil {
		return err
	}
	if !r.isThisRepository(sf.Repository, proj) {
		return fmt.Errorf("%s names the skill repository %s, not this one (%s); sync in %s to install from %s, or correct repository: in the file",
			file, sf.Repository, repoLabel(r), proj, sf.Repository)
	}
	r.sync, r.syncPath = sf, file
	return nil
}

// isThisRepository reports whether name, as a sync file in base names a repository, is r:
// a path to r's folders, or a URL of the repository one of r's remotes names (compared by
// SameRepository, so https://host/team/skills and git@host:team/skills.git are one).
func (r *repo) isThisRepository(name, base string) bool {
	if IsGitURL(name) {
		cfg, err := r.Git().Git().Config()
		if err != nil {
			return false
		}
		for _, rc := range cfg.Remotes {
			for _, u := range rc.URLs {
				if SameRepository(u, name) {
					return true
				}
			}
		}
		return false
	}
	if !filepath.IsAbs(name) {
		name = filepath.Join(base, name)
	}
	g, err := gitstore.Open(name)
	if err != nil {
		return false
	}
	defer g.Close()
	return sameFolder(g.CommonDir(), r.Git().CommonDir())
}

// repoLabel names r's repository in messages.
func repoLabel(r *repo) string {
	if r.url != "" {
		return r.url
	}
	if wt := r.Git().WorktreeDir(); wt != "" {
		return wt
	}
	return r.Git().CommonDir()
}

// ProjectChannel is the channel the sync file of the project at project (relative to dir)
// asks for; empty when it has none, or no readable sync file.
func ProjectChannel(dir, project string) string {
	if project == "" {
		return ""
	}
	if !filepath.IsAbs(project) {
		project = filepath.Join(dir, project)
	}
	sf, err := ReadSyncFile(filepath.Join(project, SyncFileName))
	if err != nil {
		return ""
	}
	return sf.Channel
}
