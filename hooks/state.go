package hooks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// State is what a hook file holds.
type State string

// States of a hook.
const (
	// StateAbsent means there is no hook.
	StateAbsent State = "absent"
	// StateInstalled means the hook is skillgit's shim.
	StateInstalled State = "installed"
	// StateChained means the hook is skillgit's shim and runs the hook that was there before.
	StateChained State = "chained"
	// StateForeign means the hook is not skillgit's.
	StateForeign State = "foreign"
)

// Change is what Install or Uninstall did to a hook.
type Change string

// Changes to a hook.
const (
	// ChangeNone means the hook was left as it was.
	ChangeNone Change = "unchanged"
	// ChangeInstalled means the shim was written where there was no hook.
	ChangeInstalled Change = "installed"
	// ChangeChained means the hook that was there was kept aside and the shim runs it first.
	ChangeChained Change = "chained"
	// ChangeUpdated means an older or different shim was replaced.
	ChangeUpdated Change = "updated"
	// ChangeRemoved means the shim was removed.
	ChangeRemoved Change = "removed"
	// ChangeRestored means the shim was replaced by the hook it had chained.
	ChangeRestored Change = "restored"
)

// Hook is one hook in the hooks folder.
type Hook struct {
	// Name is the git hook's name, such as "pre-commit".
	Name string
	// Path is the hook's file.
	Path string
	// State says what the file holds.
	State State
	// Chained is the hook kept aside to run before the shim, when that file exists.
	Chained string
	// Change is what Install or Uninstall did; empty for Status.
	Change Change
}

// Report is the hooks of a repository, and what Install or Uninstall did to them.
type Report struct {
	Folder
	Hooks []Hook
	// Warnings are to be shown on stderr.
	Warnings []string
	// commonDir is the repository's common git directory, where Install and Uninstall keep
	// what Remind reads.
	commonDir string
}

// inspect reads the state of hook name in dir.
func inspect(dir, name string) (Hook, error) {
	h := Hook{Name: name, Path: filepath.Join(dir, name), State: StateAbsent}
	chained := h.Path + ChainedSuffix
	if _, err := os.Lstat(chained); err == nil {
		h.Chained = chained
	} else if !errors.Is(err, fs.ErrNotExist) {
		return h, err
	}
	fi, err := os.Lstat(h.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return h, nil
	case err != nil:
		return h, err
	case fi.IsDir():
		return h, fmt.Errorf("%s: is a folder, not a hook; move it away and try again", h.Path)
	case isShim(h.Path) && h.Chained != "":
		h.State = StateChained
	case isShim(h.Path):
		h.State = StateInstalled
	default:
		h.State = StateForeign
	}
	return h, nil
}
