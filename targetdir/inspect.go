package targetdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillgit/skillgit/catalog"
)

// State is what a target folder holds of one skill, compared with its manifest.
type State string

// The states of an installed skill.
const (
	// StateInstalled is a skill that is as skillgit installed it.
	StateInstalled State = "installed"
	// StateEdited is a skill whose folder changed since skillgit installed it.
	StateEdited State = "edited"
	// StateMissing is a skill the manifest lists whose folder is gone.
	StateMissing State = "missing"
	// StateForeign is a skill folder that skillgit did not install.
	StateForeign State = "foreign"
)

// InstalledSkill is one skill found in a target folder.
type InstalledSkill struct {
	// Name is the skill's folder name.
	Name string
	// Path is the skill's folder.
	Path string
	// State says how the folder compares with the manifest.
	State State
	// Source is the source hash the manifest records it was installed from; empty for a
	// foreign skill.
	Source string
}

// Inspect reports every skill of target folder dir: those its manifest lists, and
// the skill folders it does not. It writes nothing and takes no mutex; a folder that does
// not exist holds nothing.
func Inspect(dir string) ([]InstalledSkill, error) {
	root, err := openExisting(dir)
	if err != nil || root == nil {
		return nil, err
	}
	defer root.Close()
	man, err := readManifest(root, dir)
	if err != nil {
		return nil, err
	}
	check, err := newStampChecker(root)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	defer check.close()
	var out []InstalledSkill
	for name, m := range man.Skills {
		s, err := inspectOwned(root, check, dir, name, m, man.ref)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	foreign, err := foreignSkills(root, dir, man)
	if err != nil {
		return nil, err
	}
	out = append(out, foreign...)
	slices.SortFunc(out, func(a, b InstalledSkill) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// inspectOwned compares the folder of a skill the manifest lists with its entry m.
// Stamps that check finds matching spare it a hash; ref is the manifest's modification time.
func inspectOwned(root *os.Root, check *stampChecker, dir, name string, m manifestEntry, ref int64) (InstalledSkill, error) {
	s := InstalledSkill{Name: name, Path: filepath.Join(dir, name), State: StateInstalled, Source: m.Source}
	if m.Written == pendingHash {
		s.Source = ""
	}
	found := inspectInstalled(root, check, name, m, ref)
	got, err := found.hash, found.err
	switch {
	case errors.Is(err, fs.ErrNotExist):
		s.State = StateMissing
	case err != nil:
		return s, fmt.Errorf("%s: %w", s.Path, err)
	case !m.wrote(root, name, got):
		s.State = StateEdited
	}
	return s, nil
}

// foreignSkills lists the skill folders of root that the manifest does not list.
func foreignSkills(root *os.Root, dir string, man *manifest) ([]InstalledSkill, error) {
	f, err := root.Open(".")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	var out []InstalledSkill
	for _, name := range names {
		if _, owned := man.Skills[name]; owned || isLeftover(name) || strings.HasPrefix(name, ".") {
			continue
		}
		if st, err := root.Stat(name + "/" + catalog.FileName); err != nil || !st.Mode().IsRegular() {
			continue
		}
		out = append(out, InstalledSkill{Name: name, Path: filepath.Join(dir, name), State: StateForeign})
	}
	return out, nil
}
