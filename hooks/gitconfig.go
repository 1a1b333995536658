package hooks

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	format "github.com/go-git/go-git/v5/plumbing/format/config"
)

// maxConfigSize bounds the git config files read.
const maxConfigSize = 1 << 20

// scope says which git config file a setting comes from.
type scope int

const (
	scopeRepo scope = iota
	scopeGlobal
	scopeSystem
)

// configFile is a git config file and its scope.
type configFile struct {
	path  string
	scope scope
}

// configFiles lists the config files git reads for a repository whose shared git directory
// is commonDir, most important first: the repository's, the global ones (GIT_CONFIG_GLOBAL
// when set, else ~/.gitconfig over $XDG_CONFIG_HOME/git/config), the system one.
func configFiles(commonDir string, getenv func(string) string) []configFile {
	files := []configFile{{filepath.Join(commonDir, "config"), scopeRepo}}
	for _, p := range globalConfigPaths(getenv) {
		files = append(files, configFile{p, scopeGlobal})
	}
	if p := systemConfigPath(getenv); p != "" {
		files = append(files, configFile{p, scopeSystem})
	}
	return files
}

func globalConfigPaths(getenv func(string) string) []string {
	if p := getenv("GIT_CONFIG_GLOBAL"); p != "" {
		return []string{p}
	}
	var paths []string
	home := getenv("HOME")
	if home != "" {
		paths = append(paths, filepath.Join(home, ".gitconfig"))
	}
	if xdg := getenv("XDG_CONFIG_HOME"); xdg != "" {
		paths = append(paths, filepath.Join(xdg, "git", "config"))
	} else if home != "" {
		paths = append(paths, filepath.Join(home, ".config", "git", "config"))
	}
	return paths
}

func systemConfigPath(getenv func(string) string) string {
	if v := strings.ToLower(strings.TrimSpace(getenv("GIT_CONFIG_NOSYSTEM"))); v != "" && v != "0" && v != "false" && v != "no" && v != "off" {
		return ""
	}
	if p := getenv("GIT_CONFIG_SYSTEM"); p != "" {
		return p
	}
	return "/etc/gitconfig"
}

// lookup returns the value git uses for section.key and the file that sets it; ok is false
// when no file sets it.
func lookup(files []configFile, section, key string) (value string, from configFile, ok bool, err error) {
	for _, f := range files {
		cfg, err := readConfig(f.path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", f, false, err
		}
		if !cfg.HasSection(section) || !cfg.Section(section).Options.Has(key) {
			continue
		}
		return cfg.Section(section).Options.Get(key), f, true, nil
	}
	return "", configFile{}, false, nil
}

// readConfig parses a git config file; a missing file is an error that matches fs.ErrNotExist.
func readConfig(path string) (*format.Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxConfigSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(b) > maxConfigSize {
		return nil, fmt.Errorf("%s: git config is larger than %d bytes", path, maxConfigSize)
	}
	cfg := format.New()
	if err := format.NewDecoder(bytes.NewReader(b)).Decode(cfg); err != nil {
		return nil, fmt.Errorf("%s: git config is malformed (%v); fix it with `git config --edit`", path, err)
	}
	return cfg, nil
}
