package hooks

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/skillgit/skillgit/gitstore"
)

// Source says where the hooks folder comes from.
type Source string

// Sources of the hooks folder.
const (
	// FromDefault is the hooks folder of the common git directory.
	FromDefault Source = "default"
	// FromHooksPath is the folder core.hooksPath names.
	FromHooksPath Source = "core.hooksPath"
)

// Folder is where git runs a repository's hooks from.
type Folder struct {
	// Dir is the absolute path of the folder.
	Dir string
	// From says why git uses it.
	From Source
	// ConfigFile is the git config file that sets core.hooksPath, when From is FromHooksPath.
	ConfigFile string
	// Shared reports that core.hooksPath comes from the global or system config, so the
	// folder serves every repository of the user.
	Shared bool
}

// locate returns the folder git runs r's hooks from.
func locate(r *gitstore.Repo, getenv func(string) string) (Folder, error) {
	value, file, ok, err := lookup(configFiles(r.CommonDir(), getenv), "core", "hooksPath")
	if err != nil {
		return Folder{}, err
	}
	if !ok {
		return Folder{Dir: filepath.Join(r.CommonDir(), "hooks"), From: FromDefault}, nil
	}
	dir, err := hooksPathDir(r, value, getenv)
	if err != nil {
		return Folder{}, fmt.Errorf("%s: core.hooksPath: %w", file.path, err)
	}
	return Folder{Dir: dir, From: FromHooksPath, ConfigFile: file.path, Shared: file.scope != scopeRepo}, nil
}

// hooksPathDir resolves a core.hooksPath value as git does: "~/" is the home folder, and a
// relative path is relative to where hooks run, the top of the working tree (the git
// directory in a bare repository).
func hooksPathDir(r *gitstore.Repo, value string, getenv func(string) string) (string, error) {
	v := strings.TrimSpace(value)
	if v == "" {
		return "", fmt.Errorf("the value is empty; set a folder or remove it with `git config --unset core.hooksPath`")
	}
	if v == "~" || strings.HasPrefix(v, "~/") {
		home := getenv("HOME")
		if home == "" {
			return "", fmt.Errorf("%q starts with ~ but HOME is not set", v)
		}
		v = filepath.Join(home, strings.TrimPrefix(v[1:], "/"))
	}
	if filepath.IsAbs(v) {
		return filepath.Clean(v), nil
	}
	base := r.WorktreeDir()
	if r.Bare() {
		base = r.GitDir()
	}
	return filepath.Join(base, v), nil
}
