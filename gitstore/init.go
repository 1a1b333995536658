package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// InitOptions configures Init.
type InitOptions struct {
	// Bare creates a repository without a working tree.
	Bare bool
	// Branch is the branch HEAD points at; "main" when empty.
	Branch string
}

// Init creates a repository at path, which may be missing or an existing
// folder (it must be empty for a bare repository), and opens it. HEAD
// points at refs/heads/<Branch>, which has no commit yet.
func Init(path string, opts InitOptions) (*Repo, error) {
	if opts.Branch == "" {
		opts.Branch = "main"
	}
	branch := "refs/heads/" + opts.Branch
	if err := CheckRefName(branch); err != nil {
		return nil, fmt.Errorf("branch %q: %w", opts.Branch, err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := checkInitTarget(abs, opts.Bare); err != nil {
		return nil, err
	}
	_, err = git.PlainInitWithOptions(abs, &git.PlainInitOptions{
		Bare:        opts.Bare,
		InitOptions: git.InitOptions{DefaultBranch: plumbing.ReferenceName(branch)},
	})
	if err != nil {
		return nil, fmt.Errorf("%s: creating repository: %w", abs, err)
	}
	return Open(abs)
}

// checkInitTarget refuses to create a repository inside an existing one's
// git directory, over a file, or as a bare repository in a used folder.
func checkInitTarget(abs string, bare bool) error {
	fi, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", abs, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: is a file; pick a folder for the repository", abs)
	}
	if isGitDir(abs) {
		return fmt.Errorf("%s: is already a git repository; open it instead", abs)
	}
	if _, err := os.Lstat(filepath.Join(abs, ".git")); err == nil {
		return fmt.Errorf("%s: already holds a .git; open the repository instead", abs)
	}
	if !bare {
		return nil
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return fmt.Errorf("%s: %w", abs, err)
	}
	if len(entries) > 0 {
		return fmt.Errorf("%s: folder is not empty; pick an empty folder for a bare repository", abs)
	}
	return nil
}
