package hooks

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/skillgit/skillgit/gitstore"
)

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
	for _, p := range gitstore.GlobalConfigPaths(getenv) {
		files = append(files, configFile{p, scopeGlobal})
	}
	if p := systemConfigPath(getenv); p != "" {
		files = append(files, configFile{p, scopeSystem})
	}
	return files
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
		cfg, err := gitstore.ReadConfigFile(f.path)
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
