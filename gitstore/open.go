package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// location is where the parts of a repository on disk live.
type location struct {
	gitDir    string
	commonDir string
	worktree  string // "" when bare
}

// Open opens the repository at path, which may be a working tree's root
// or any folder below it, a .git folder, a bare repository or a linked
// worktree. Features the repository uses that this package cannot handle
// are reported as ErrUnsupported before anything else reads the repository.
//
// In a pre-receive hook, where git keeps the pushed objects in a
// quarantine folder named by GIT_QUARANTINE_PATH, the repository also
// reads the objects there, provided that the folder lies inside its
// objects folder. The environment is read once, here.
func Open(path string) (*Repo, error) {
	return openEnv(path, os.Getenv)
}

// openEnv is Open with the environment read through getenv.
func openEnv(path string, getenv func(string) string) (*Repo, error) {
	loc, err := locate(path)
	if err != nil {
		return nil, err
	}
	if err := checkSupported(loc); err != nil {
		return nil, err
	}
	return openLocation(loc, getenv)
}

// objectCacheSize bounds go-git's cache of decoded objects. Its default, 96 MiB, keeps a
// long history walk (a cold `skillgit log`) above the memory the commands are meant to stay
// under, where the collector then runs without pause; 32 MiB reads as fast.
const objectCacheSize = 32 * cache.MiByte

// largeObject is the size above which go-git reads an object's content only
// when it is asked for, rather than when the object is looked up.
const largeObject = 1 << 20

func openLocation(loc location, getenv func(string) string) (*Repo, error) {
	var dot billy.Filesystem = osfs.New(loc.gitDir)
	if loc.commonDir != loc.gitDir {
		dot = dotgit.NewRepositoryFilesystem(dot, osfs.New(loc.commonDir))
	}
	s := filesystem.NewStorageWithOptions(dot, cache.NewObjectLRU(objectCacheSize),
		filesystem.Options{MaxOpenDescriptors: 16, LargeObjectThreshold: largeObject})
	st := withQuarantine(s, filepath.Join(loc.commonDir, "objects"), getenv)
	var wt billy.Filesystem
	if loc.worktree != "" {
		wt = osfs.New(loc.worktree)
	}
	repo, err := git.Open(st, wt)
	if err != nil {
		return nil, fmt.Errorf("%s: opening repository: %w", loc.gitDir, err)
	}
	r := newRepo(repo, st, false)
	r.gitDir, r.commonDir, r.worktree = loc.gitDir, loc.commonDir, loc.worktree
	if st == storage.Storer(s) {
		r.objects = openObjects(filepath.Join(loc.commonDir, "objects"))
	}
	return r, nil
}

// locate finds the repository that contains path, walking up as git does.
func locate(path string) (location, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return location{}, fmt.Errorf("%s: %w", path, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return location{}, notRepository(abs, err)
	}
	if !fi.IsDir() {
		abs = filepath.Dir(abs)
	}
	for dir := abs; ; {
		loc, found, err := locateIn(dir)
		if err != nil || found {
			return loc, err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return location{}, notRepository(abs, nil)
		}
		dir = parent
	}
}

func notRepository(path string, cause error) error {
	hint := "run `skillgit init` to create one, or point -C at an existing repository"
	if cause != nil && !errors.Is(cause, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w (%v)", path, ErrNotRepository, cause)
	}
	return fmt.Errorf("%s: %w (%s)", path, ErrNotRepository, hint)
}

// locateIn reports the repository whose worktree root or git directory is
// dir, if any.
func locateIn(dir string) (location, bool, error) {
	dotGit := filepath.Join(dir, ".git")
	fi, err := os.Lstat(dotGit)
	switch {
	case err == nil && fi.IsDir() && isGitDir(dotGit):
		return finish(dotGit, dir)
	case err == nil && fi.Mode().IsRegular():
		gitDir, err := readGitFile(dotGit)
		if err != nil {
			return location{}, false, err
		}
		return finish(gitDir, dir)
	}
	if isGitDir(dir) {
		return finish(dir, worktreeOf(dir))
	}
	return location{}, false, nil
}

func finish(gitDir, worktree string) (location, bool, error) {
	common, err := commonDirOf(gitDir)
	if err != nil {
		return location{}, false, err
	}
	return location{gitDir: gitDir, commonDir: common, worktree: worktree}, true, nil
}

// isGitDir mirrors git's own test: a HEAD file, and objects and refs
// folders (possibly shared through a commondir file).
func isGitDir(dir string) bool {
	if fi, err := os.Stat(filepath.Join(dir, "HEAD")); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	common, err := commonDirOf(dir)
	if err != nil {
		return false
	}
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(common, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// readGitFile follows a ".git" file ("gitdir: <path>") to its git directory.
func readGitFile(path string) (string, error) {
	b, err := readSmallFile(path, 4096)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	target, ok := strings.CutPrefix(string(bytes.TrimSpace(b)), "gitdir:")
	target = strings.TrimSpace(target)
	if !ok || target == "" {
		return "", fmt.Errorf("%s: %w (the file does not start with \"gitdir:\"; repair or remove it)", path, ErrNotRepository)
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(path), target)
	}
	if !isGitDir(target) {
		return "", fmt.Errorf("%s: %w (it points at %s, which is missing; run `git worktree prune`)", path, ErrNotRepository, target)
	}
	return filepath.Clean(target), nil
}

// commonDirOf returns where a git directory's shared objects and refs live.
func commonDirOf(gitDir string) (string, error) {
	b, err := readSmallFile(filepath.Join(gitDir, "commondir"), 4096)
	if errors.Is(err, fs.ErrNotExist) {
		return gitDir, nil
	}
	if err != nil {
		return "", fmt.Errorf("%s: reading commondir: %w", gitDir, err)
	}
	common := strings.TrimSpace(string(b))
	if !filepath.IsAbs(common) {
		common = filepath.Join(gitDir, common)
	}
	return filepath.Clean(common), nil
}

// worktreeOf decides whether a git directory reached directly has a
// working tree: a linked worktree's folder names it in its gitdir file,
// a folder called .git belongs to its parent unless core.bare says
// otherwise, and anything else is bare.
func worktreeOf(gitDir string) string {
	if b, err := readSmallFile(filepath.Join(gitDir, "gitdir"), 4096); err == nil {
		if p := strings.TrimSpace(string(b)); filepath.IsAbs(p) {
			return filepath.Dir(p)
		}
	}
	cfg, err := ReadConfigFile(filepath.Join(gitDir, "config"))
	if err == nil && cfg.Section("core").Options.Has("bare") && configBool(cfg, "core", "bare") {
		return ""
	}
	if filepath.Base(gitDir) == ".git" {
		return filepath.Dir(gitDir)
	}
	return ""
}
