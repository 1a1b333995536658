// Package testenv isolates tests that run git and skillgit from the configuration and the
// environment of the machine they run on.
package testenv

import (
	"os"
	"testing"
)

// Hermetic points HOME and XDG_CONFIG_HOME at a fresh folder, turns off the global and
// system git configuration, gives git a fixed identity, clears skillgit's own variables, and
// then sets extra. It returns the home folder. The variables are restored when t ends.
func Hermetic(t testing.TB, extra map[string]string) string {
	t.Helper()
	home := t.TempDir()
	env := map[string]string{
		"HOME": home, "XDG_CONFIG_HOME": home, "GIT_CONFIG_GLOBAL": os.DevNull, "GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
		"GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
		"SKILLGIT_SKIP_SECURITY_AUDIT": "", "SKILLGIT_AUTHOR": "",
	}
	for k, v := range extra {
		env[k] = v
	}
	for k, v := range env {
		t.Setenv(k, v)
	}
	return home
}
