package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"time"

	format "github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Identity returns the signature to author commits with, timed now. It
// takes GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL from the environment, then
// user.name and user.email from the repository's config, then from the
// global config (GIT_CONFIG_GLOBAL when set, else ~/.gitconfig over
// $XDG_CONFIG_HOME/git/config), then $EMAIL for the email. What is still
// missing falls back to the login name and login@hostname, and warning
// says so.
func (r *Repo) Identity() (sig object.Signature, warning string, err error) {
	return r.identity("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL")
}

func (r *Repo) identity(nameEnv, emailEnv string) (object.Signature, string, error) {
	cfgs, err := r.identityConfigs()
	if err != nil {
		return object.Signature{}, "", err
	}
	name := firstSet(os.Getenv(nameEnv), lookupUser(cfgs, "name"))
	email := firstSet(os.Getenv(emailEnv), lookupUser(cfgs, "email"), os.Getenv("EMAIL"))
	var warning string
	if name == "" || email == "" {
		login := loginName()
		name = firstSet(name, login)
		email = firstSet(email, login+"@"+hostName())
		warning = fmt.Sprintf("committer identity not set; using %s <%s>; set it with git config user.name/user.email", name, email)
	}
	if err := checkIdentity("user", name, email); err != nil {
		return object.Signature{}, "", err
	}
	return object.Signature{Name: name, Email: email, When: time.Now()}, warning, nil
}

// identityConfigs returns the configs that may hold user.name, most
// important first.
func (r *Repo) identityConfigs() ([]*format.Config, error) {
	repoCfg, err := r.repoConfig()
	if err != nil {
		return nil, err
	}
	cfgs := []*format.Config{repoCfg}
	for _, path := range GlobalConfigPaths(os.Getenv) {
		cfg, err := ReadConfigFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		cfgs = append(cfgs, cfg)
	}
	return cfgs, nil
}

// GlobalConfigPaths lists the global git config files as git finds them, most important
// first: GIT_CONFIG_GLOBAL when set, else ~/.gitconfig over $XDG_CONFIG_HOME/git/config.
func GlobalConfigPaths(getenv func(string) string) []string {
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

// repoConfig returns the repository's own config.
func (r *Repo) repoConfig() (*format.Config, error) {
	if r.mem {
		r.objMu.Lock()
		defer r.objMu.Unlock()
		cfg, err := r.storer.Config()
		if err != nil || cfg.Raw == nil {
			return format.New(), err
		}
		return cfg.Raw, nil
	}
	cfg, err := ReadConfigFile(filepath.Join(r.commonDir, "config"))
	if errors.Is(err, fs.ErrNotExist) {
		return format.New(), nil
	}
	return cfg, err
}

func lookupUser(cfgs []*format.Config, key string) string {
	for _, cfg := range cfgs {
		if v, ok := configValue(cfg, "user", "", key); ok && v != "" {
			return v
		}
	}
	return ""
}

func firstSet(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

func loginName() string {
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return "skillgit"
}

func hostName() string {
	if h, err := os.Hostname(); err == nil && h != "" {
		return h
	}
	return "localhost"
}

// ConfigValue returns the value git config gives section.key (section.sub.key when sub is
// not empty) from the repository's config or the global one, as Identity reads them; empty
// when it is not set.
func (r *Repo) ConfigValue(section, sub, key string) (string, error) {
	cfgs, err := r.identityConfigs()
	if err != nil {
		return "", err
	}
	for _, cfg := range cfgs {
		if v, ok := configValue(cfg, section, sub, key); ok && v != "" {
			return v, nil
		}
	}
	return "", nil
}
