package gitauth

import (
	"io"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"sync"

	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"
	"github.com/kevinburke/ssh_config"
)

// maxSSHConfig bounds the read of an ssh configuration file.
const maxSSHConfig = 1 << 20

// systemSSHConfig is OpenSSH's system-wide configuration.
const systemSSHConfig = "/etc/ssh/ssh_config"

// sshConfig is OpenSSH's configuration as skillgit reads it: the user's file, then the
// system's; for each key the first value found wins, as in OpenSSH.
type sshConfig struct{ files []*ssh_config.Config }

// readSSHConfig reads ~/.ssh/config (of HOME, as git's own configuration) and the system's
// file. A file that is missing or that the parser cannot read (a Match block) adds nothing.
func readSSHConfig() sshConfig {
	var c sshConfig
	for _, name := range []string{filepath.Join(homeDir(), ".ssh", "config"), systemSSHConfig} {
		f, err := os.Open(name)
		if err != nil {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(f, maxSSHConfig))
		f.Close()
		if err != nil {
			continue
		}
		if cfg, err := ssh_config.DecodeBytes(data); err == nil {
			c.files = append(c.files, cfg)
		}
	}
	return c
}

// get is the first value of key for host, or "".
func (c sshConfig) get(host, key string) string {
	for _, f := range c.files {
		if v, err := f.Get(host, key); err == nil && v != "" {
			return v
		}
	}
	return ""
}

// getAll is every value of key for host, the user's file first.
func (c sshConfig) getAll(host, key string) []string {
	var all []string
	for _, f := range c.files {
		if v, err := f.GetAll(host, key); err == nil {
			all = append(all, v...)
		}
	}
	return all
}

// goGitSSHConfig answers go-git's own questions, the HostName and Port it connects to,
// from the files skillgit reads, and with no default values: go-git would let a default
// Port of 22 override the port of the URL.
type goGitSSHConfig struct{}

// Get returns the value of key for host.
func (goGitSSHConfig) Get(host, key string) string {
	c := readSSHConfig()
	if !strings.EqualFold(key, "HostName") {
		return c.get(host, key)
	}
	if h := c.get(host, "HostName"); h != "" {
		return expandHostName(h, host)
	}
	if c.get(host, "Port") != "" {
		return host // go-git reads Port only where HostName is set
	}
	return ""
}

// installSSHConfig points go-git at the same configuration files as skillgit, once.
var installSSHConfig = sync.OnceFunc(func() { gitssh.DefaultSSHConfig = goGitSSHConfig{} })

// expandHostName replaces %h, the name given, and %% in a HostName.
func expandHostName(v, host string) string {
	return strings.NewReplacer("%h", host, "%%", "%").Replace(v)
}

// expandPath expands ~ and the tokens %d (home), %u (local user), %r (remote user), %h
// (host) and %% of a path in the ssh configuration.
func expandPath(p, host, remoteUser string) string {
	home := homeDir()
	if p == "~" || strings.HasPrefix(p, "~/") {
		p = home + p[1:]
	}
	return strings.NewReplacer("%d", home, "%u", localUser(), "%r", remoteUser, "%h", host, "%%", "%").Replace(p)
}

// homeDir is HOME, or the account's home folder when HOME is not set.
func homeDir() string {
	if h, err := os.UserHomeDir(); err == nil {
		return h
	}
	if u, err := user.Current(); err == nil {
		return u.HomeDir
	}
	return ""
}

// localUser is the name of the account skillgit runs as, which ssh logs in as when neither
// the URL nor the configuration names a user.
func localUser() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return os.Getenv("USER")
}
