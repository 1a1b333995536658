package gitstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeConfig(t *testing.T, path, name, email string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	content := "[user]\n"
	if name != "" {
		content += "\tname = " + name + "\n"
	}
	if email != "" {
		content += "\temail = " + email + "\n"
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestIdentity(t *testing.T) {
	tests := map[string]struct {
		setup   func(t *testing.T, home string, r *Repo)
		want    string
		warning bool
	}{
		"environment first": {func(t *testing.T, home string, r *Repo) {
			t.Setenv("GIT_AUTHOR_NAME", "Env Name")
			t.Setenv("GIT_AUTHOR_EMAIL", "env@example.com")
			writeConfig(t, filepath.Join(r.CommonDir(), "config"), "Repo Name", "repo@example.com")
		}, "Env Name <env@example.com>", false},
		"repository config over global": {func(t *testing.T, home string, r *Repo) {
			gitRun(t, r.GitDir(), "config", "user.name", "Repo Name")
			writeConfig(t, filepath.Join(home, ".gitconfig"), "Global Name", "global@example.com")
		}, "Repo Name <global@example.com>", false},
		"GIT_CONFIG_GLOBAL": {func(t *testing.T, home string, r *Repo) {
			p := filepath.Join(home, "custom.cfg")
			writeConfig(t, p, "Custom", "custom@example.com")
			writeConfig(t, filepath.Join(home, ".gitconfig"), "Ignored", "ignored@example.com")
			t.Setenv("GIT_CONFIG_GLOBAL", p)
		}, "Custom <custom@example.com>", false},
		"home over XDG": {func(t *testing.T, home string, r *Repo) {
			writeConfig(t, filepath.Join(home, "xdg", "git", "config"), "Xdg Name", "xdg@example.com")
			writeConfig(t, filepath.Join(home, ".gitconfig"), "Home Name", "")
		}, "Home Name <xdg@example.com>", false},
		"fallback": {func(t *testing.T, home string, r *Repo) {
			t.Setenv("USER", "ada")
		}, "ada <ada@", true},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "xdg"))
			t.Setenv("GIT_CONFIG_GLOBAL", "")
			r := diskRepo(false)(t)
			tt.setup(t, home, r)
			sig, warning, err := r.Identity()
			if err != nil {
				t.Fatal(err)
			}
			if got := sig.Name + " <" + sig.Email + ">"; !strings.HasPrefix(got, tt.want) {
				t.Errorf("identity = %q, want %q", got, tt.want)
			}
			if (warning != "") != tt.warning {
				t.Errorf("warning = %q, want one: %v", warning, tt.warning)
			}
			if tt.warning && !strings.Contains(warning, "git config user.name") {
				t.Errorf("warning %q does not say how to set the identity", warning)
			}
			if sig.When.IsZero() {
				t.Error("identity has no time")
			}
		})
	}
}

func TestIdentityRejectsBadConfig(t *testing.T) {
	r := diskRepo(false)(t)
	writeConfig(t, filepath.Join(r.CommonDir(), "config"), "Eve <root@x>", "eve@example.com")
	if _, _, err := r.Identity(); err == nil || !strings.Contains(err.Error(), "user.name") {
		t.Errorf("Identity = %v, want an error naming user.name", err)
	}
	p := filepath.Join(t.TempDir(), "broken.cfg")
	if err := os.WriteFile(p, []byte("[user\nname"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", p)
	r2 := OpenMemory()
	if _, _, err := r2.Identity(); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("Identity with a broken global config = %v, want an error naming it", err)
	}
}
