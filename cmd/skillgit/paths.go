package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/skillgit/skillgit/gitstore"
)

// path resolves a path the user gave the way git resolves one under -C: an absolute path
// as it is, a relative one from the folder -C names.
func (a *app) path(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(a.repo, p)
}

// needPathOutsideGit refuses, as a usage error, a command that was given no PATH while it
// runs outside any git repository: without a repository there is no skills folder to take
// instead, and searching the current folder could read a whole home folder.
func (a *app) needPathOutsideGit(name string) error {
	r, err := gitstore.Open(a.repo)
	if err == nil {
		r.Close()
		return nil
	}
	if errors.Is(err, gitstore.ErrNotRepository) {
		return notInRepository(name, a.repo)
	}
	return nil // whatever else is wrong, the command itself reports it
}

// notInRepository is the usage error of skillgit name run with no PATH outside git; a folder
// that does not exist is an error of its own.
func notInRepository(name, dir string) error {
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("%s: %w", dir, errors.Unwrap(err))
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	return usageError{fmt.Errorf("%s: not in a git repository, so there is no skills folder to %s; give a PATH: "+
		"a skill folder, a SKILL.md or a folder of skills (skillgit %s PATH...)", abs, name, name)}
}
