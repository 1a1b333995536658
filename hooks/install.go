package hooks

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/skillgit/skillgit/gitstore"
)

// Install writes skillgit's shims into the folder git runs the repository's hooks from:
// pre-commit and pre-push, or pre-receive in a bare repository. A hook that is not skillgit's
// is kept as <name>.skillgit-chained and run first. Installing again changes nothing.
func Install(o Options) (*Report, error) {
	exe, err := executable(o.Executable, o.getenv())
	if err != nil {
		return nil, err
	}
	rep, names, err := survey(o)
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		if err := refuseReplacedShim(rep.Dir, name); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(rep.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("%s: creating the hooks folder: %w", rep.Dir, err)
	}
	for _, name := range names {
		h, err := installOne(rep.Dir, name, exe)
		if err != nil {
			return rep, err
		}
		rep.Hooks = append(rep.Hooks, h)
	}
	if err := unquiet(rep.commonDir); err != nil {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("warning: %v; skillgit will not remind you if these hooks go missing", err))
	}
	return rep, nil
}

// survey opens the repository, finds its hooks folder and says which hooks it needs.
func survey(o Options) (*Report, []string, error) {
	r, err := gitstore.Open(o.Dir)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	f, err := locate(r, o.getenv())
	if err != nil {
		return nil, nil, err
	}
	rep := &Report{Folder: f, commonDir: r.CommonDir()}
	if f.Shared {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf(
			"warning: core.hooksPath is set in %s, so the hooks in %s run in every repository; outside a skillgit repository they do nothing",
			f.ConfigFile, f.Dir))
	}
	return rep, namesFor(r), nil
}

// executable returns the program the shims run: exe, else this program, else "" for
// skillgit on PATH (see program).
func executable(exe string, getenv func(string) string) (string, error) {
	if exe == "" {
		prog, err := program(getenv)
		if err != nil {
			return "", fmt.Errorf("finding the skillgit program for the hooks: %w", err)
		}
		return prog, nil
	}
	abs, err := filepath.Abs(exe)
	if err != nil {
		return "", fmt.Errorf("%s: %w", exe, err)
	}
	return abs, nil
}

// refuseReplacedShim refuses a hook that is not skillgit's while a chained hook is kept
// beside it: someone replaced the shim, and installing would have to drop one of the two.
func refuseReplacedShim(dir, name string) error {
	h, err := inspect(dir, name)
	if err != nil {
		return err
	}
	if h.State == StateForeign && h.Chained != "" {
		return fmt.Errorf("%s: is not skillgit's hook, and %s holds the hook skillgit kept aside before; "+
			"keep one of the two (merge them into %s, or remove one) and run `skillgit hooks install` again",
			h.Path, h.Chained, h.Path)
	}
	return nil
}

// installOne puts the shim in place of hook name.
func installOne(dir, name, exe string) (Hook, error) {
	h, err := inspect(dir, name)
	if err != nil {
		return h, err
	}
	want := shim(name, exe)
	switch h.State {
	case StateInstalled, StateChained:
		if same(h.Path, want) {
			h.Change = ChangeNone
			return h, nil
		}
		h.Change = ChangeUpdated
		return h, writeAtomic(h.Path, want, nil)
	case StateForeign:
		h.Change, h.Chained = ChangeChained, h.Path+ChainedSuffix
		h.State = StateChained
		return h, chain(h.Path, h.Chained, want)
	}
	h.Change, h.State = ChangeInstalled, StateInstalled
	if h.Chained != "" {
		h.State = StateChained
	}
	return h, writeAtomic(h.Path, want, nil)
}

// same reports whether the file at path holds exactly want.
func same(path string, want []byte) bool {
	got, err := os.ReadFile(path)
	return err == nil && bytes.Equal(got, want)
}

// chain keeps the foreign hook as chained and puts the shim want in its place; on failure
// the foreign hook is put back.
func chain(hook, chained string, want []byte) error {
	moved := false
	err := writeAtomic(hook, want, func() error {
		err := moveAside(hook, chained)
		moved = err == nil
		return err
	})
	if err != nil && moved {
		os.Rename(chained, hook)
	}
	return err
}

// moveAside keeps a foreign hook as its chained file, with its content and mode.
func moveAside(hook, chained string) error {
	if _, err := os.Lstat(chained); err == nil {
		return fmt.Errorf("%s: already exists; move it away and try again", chained)
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := os.Rename(hook, chained); err != nil {
		return fmt.Errorf("%s: keeping the existing hook as %s: %w", hook, filepath.Base(chained), err)
	}
	return nil
}
