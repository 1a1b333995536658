package gitauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gitWithEnv runs git with the environment of the test and env after it, in dir.
func gitWithEnv(t *testing.T, dir string, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// clonesWith clones url with git and the environment of a, and reports what git said.
func clonesWith(t *testing.T, a *Access, url string) (string, error) {
	t.Helper()
	return gitWithEnv(t, t.TempDir(), a.CommandEnv(), "clone", "-q", "--bare", url, "c.git")
}

// noSecretOnDisk fails when a file below dir holds secret.
func noSecretOnDisk(t *testing.T, dir, secret string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if b, rerr := os.ReadFile(p); rerr == nil && strings.Contains(string(b), secret) {
			t.Errorf("%s holds the secret", p)
		}
		return nil
	})
}

func TestCommandEnvToken(t *testing.T) {
	log := filepath.Join(t.TempDir(), "helper.log")
	srv, home := privateServer(t, helperConfig(t, log))
	t.Setenv("GITLAB_HOST", strings.TrimPrefix(srv.URL, "https://"))
	t.Setenv("GITLAB_TOKEN", tokenSecret)
	url := srv.URL + "/skills.git"
	if out, err := clonesWith(t, For(url), url); err != nil {
		t.Fatalf("git clone with the token's environment: %v\n%s", err, out)
	}
	if got := srv.Seen(); !slices.Contains(got, "oauth2 200") || slices.Contains(got, "alice 200") {
		t.Errorf("the server saw %q, want the token's user and not the helper's", got)
	}
	// The configured helper was neither asked nor told to store the token.
	if got := readLog(t, log); got != "" {
		t.Errorf("the configured helper was asked: %q", got)
	}
	noSecretOnDisk(t, home, tokenSecret)
}

func TestCommandEnvHelperCredentials(t *testing.T) {
	log := filepath.Join(t.TempDir(), "helper.log")
	srv, home := privateServer(t, helperConfig(t, log))
	t.Setenv("HELPER_PASSWORD", helperSecret)
	url := srv.URL + "/skills.git"
	a := For(url)
	if err := listRefs(a, url); err != nil {
		t.Fatalf("List: %v", err)
	}
	// The git command uses what the helper gave the List, without asking it again.
	if out, err := clonesWith(t, a, url); err != nil {
		t.Fatalf("git clone with the helper's credentials: %v\n%s", err, out)
	}
	if got, want := readLog(t, log), "get\nstore\n1"; got != want {
		t.Errorf("the helper log is %q, want %q: asked once, by the List", got, want)
	}
	if got := srv.Seen(); got[len(got)-1] != "alice 200" {
		t.Errorf("the server saw %q", got)
	}
	noSecretOnDisk(t, home, helperSecret)
	if got := a.Conceal("fatal: " + helperSecret); got != "fatal: ***" {
		t.Errorf("Conceal = %q", got)
	}
}

func TestCommandEnvNoCredentials(t *testing.T) {
	srv, _ := privateServer(t, "")
	url := srv.URL + "/skills.git"
	out, err := clonesWith(t, For(url), url)
	if err == nil {
		t.Fatal("git clone worked without credentials")
	}
	// git neither prompted nor hung: it says it could not read a user name.
	if !strings.Contains(out, "terminal prompts disabled") && !strings.Contains(out, "could not read Username") {
		t.Errorf("git said %q", out)
	}
}
