package gitauth

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/storage/memory"

	"github.com/skillgit/skillgit/internal/testenv"
)

// The accounts of the test server; the token is GitLab-shaped, so that it is sent as oauth2.
const (
	helperSecret = "s3cret-from-the-helper"
	tokenSecret  = "glpat-test-token-0123"
)

// privateServer serves a bare repository skills.git with one commit over HTTPS behind
// basic auth, in a hermetic home whose global git configuration is gitconfig.
func privateServer(t *testing.T, gitconfig string) (*testenv.GitHTTPS, string) {
	t.Helper()
	env := map[string]string{"SSH_AUTH_SOCK": ""}
	for _, v := range allTokenVars {
		env[v] = ""
	}
	home := testenv.Hermetic(t, env)
	cfgFile := filepath.Join(home, ".gitconfig")
	if err := os.WriteFile(cfgFile, []byte(gitconfig), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", cfgFile)
	base := servedRepository(t)
	srv := testenv.ServeGitHTTPS(t, base, map[string]string{"alice": helperSecret, "oauth2": tokenSecret})
	t.Setenv("GIT_SSL_CAINFO", srv.CAFile)
	return srv, home
}

// servedRepository makes a folder to serve that holds a bare repository skills.git with
// one commit, and returns the folder.
func servedRepository(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	work := filepath.Join(t.TempDir(), "work")
	testenv.WriteFiles(t, work, map[string]string{"skills/a/SKILL.md": testenv.SkillMD("a")})
	testenv.Git(t, work, "init", "-q")
	testenv.CommitAll(t, work, "first")
	testenv.Git(t, base, "clone", "-q", "--bare", work, "skills.git")
	return base
}

// helperConfig is a git configuration whose credential helper answers alice and the
// password HELPER_PASSWORD holds, and logs each action it is asked for (never the
// password) to log.
func helperConfig(t *testing.T, log string) string {
	t.Helper()
	script := filepath.Join(t.TempDir(), "helper.sh")
	body := "#!/bin/sh\necho \"$1\" >> " + log + "\nif [ \"$1\" = get ]; then cat > /dev/null; echo username=alice; echo \"password=$HELPER_PASSWORD\"; else grep -c '^password=' >> " + log + "; fi\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return "[credential]\n\thelper = " + script + "\n"
}

func listRefs(a *Access, url string) error {
	r := git.NewRemote(memory.NewStorage(), &config.RemoteConfig{Name: "origin", URLs: []string{url}})
	_, err := a.List(context.Background(), r, &git.ListOptions{})
	return err
}

func readLog(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

func TestCredentialHelper(t *testing.T) {
	log := filepath.Join(t.TempDir(), "helper.log")
	srv, _ := privateServer(t, helperConfig(t, log))
	t.Setenv("HELPER_PASSWORD", helperSecret)
	url := srv.URL + "/skills.git"
	a := For(url)
	if err := listRefs(a, url); err != nil {
		t.Fatalf("List: %v", err)
	}
	if got, want := srv.Seen(), []string{"- 401", "alice 200"}; !slices.Equal(got, want) {
		t.Errorf("the server saw %q, want %q", got, want)
	}
	// The helper was asked once and told the credential worked, with its password.
	if got, want := readLog(t, log), "get\nstore\n1"; got != want {
		t.Errorf("the helper log is %q, want %q", got, want)
	}
	// A second call of the same Access uses the credential without asking again.
	r := git.NewRemote(memory.NewStorage(), &config.RemoteConfig{Name: "origin", URLs: []string{url}})
	if err := a.Fetch(context.Background(), r, &git.FetchOptions{RefSpecs: []config.RefSpec{"+refs/heads/*:refs/heads/*"}}); err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if got := readLog(t, log); got != "get\nstore\n1" {
		t.Errorf("after the fetch, the helper log is %q", got)
	}
	if seen := srv.Seen(); slices.Contains(seen[2:], "- 401") {
		t.Errorf("the fetch went without the credential: %q", seen)
	}
}

func TestCredentialHelperRefused(t *testing.T) {
	log := filepath.Join(t.TempDir(), "helper.log")
	srv, _ := privateServer(t, helperConfig(t, log))
	t.Setenv("HELPER_PASSWORD", "wrong-password-42")
	url := srv.URL + "/skills.git"
	err := listRefs(For(url), url)
	if !errors.Is(err, transport.ErrAuthenticationRequired) {
		t.Fatalf("List: %v, want ErrAuthenticationRequired", err)
	}
	if msg := err.Error(); strings.Contains(msg, "wrong-password-42") || !strings.Contains(msg, "refused the credentials git's credential helper gave") {
		t.Errorf("the error does not say the helper's credentials were refused, or shows them: %v", err)
	}
	if got, want := readLog(t, log), "get\nerase\n1"; got != want {
		t.Errorf("the helper log is %q, want %q (told to forget the password)", got, want)
	}
}

func TestNoCredentials(t *testing.T) {
	srv, _ := privateServer(t, "")
	t.Setenv("GITHUB_TOKEN", "ghp_not-for-this-host")
	url := srv.URL + "/skills.git"
	err := listRefs(For(url), url)
	if !errors.Is(err, transport.ErrAuthenticationRequired) {
		t.Fatalf("List: %v, want ErrAuthenticationRequired", err)
	}
	if !strings.Contains(err.Error(), "the repository needs credentials") || !strings.Contains(err.Error(), "git credential helper") {
		t.Errorf("the error does not say what to set: %v", err)
	}
	// The GitHub token never went to this host.
	for _, s := range srv.Seen() {
		if !strings.HasPrefix(s, "- ") {
			t.Errorf("the server saw credentials: %q", srv.Seen())
		}
	}
}

func TestTokenVariable(t *testing.T) {
	log := filepath.Join(t.TempDir(), "helper.log")
	srv, _ := privateServer(t, helperConfig(t, log))
	host := strings.TrimPrefix(srv.URL, "https://")
	t.Setenv("GITLAB_HOST", host)
	t.Setenv("GITLAB_TOKEN", tokenSecret)
	url := srv.URL + "/skills.git"
	if err := listRefs(For(url), url); err != nil {
		t.Fatalf("List: %v", err)
	}
	if got, want := srv.Seen(), []string{"oauth2 200"}; !slices.Equal(got, want) {
		t.Errorf("the server saw %q, want %q", got, want)
	}
	if got := readLog(t, log); got != "" {
		t.Errorf("the helper was asked although the token worked: %q", got)
	}
}

func TestTokenRefusedFallsBackToHelper(t *testing.T) {
	log := filepath.Join(t.TempDir(), "helper.log")
	srv, _ := privateServer(t, helperConfig(t, log))
	t.Setenv("HELPER_PASSWORD", helperSecret)
	t.Setenv("GITLAB_HOST", strings.TrimPrefix(srv.URL, "https://"))
	t.Setenv("GITLAB_TOKEN", "glpat-revoked-token-99")
	url := srv.URL + "/skills.git"
	if err := listRefs(For(url), url); err != nil {
		t.Fatalf("List: %v", err)
	}
	if got, want := srv.Seen(), []string{"oauth2 401", "alice 200"}; !slices.Equal(got, want) {
		t.Errorf("the server saw %q, want %q", got, want)
	}
}

func TestTokenRefused(t *testing.T) {
	srv, _ := privateServer(t, "")
	t.Setenv("GITLAB_HOST", strings.TrimPrefix(srv.URL, "https://"))
	t.Setenv("GITLAB_TOKEN", "glpat-revoked-token-99")
	url := srv.URL + "/skills.git"
	err := listRefs(For(url), url)
	if err == nil || !strings.Contains(err.Error(), "refused the token of GITLAB_TOKEN") || strings.Contains(err.Error(), "revoked-token") {
		t.Errorf("List: %v, want a refusal naming GITLAB_TOKEN without the token", err)
	}
}

func TestPasswordInURLIsUsedButNotShown(t *testing.T) {
	srv, _ := privateServer(t, "")
	url := strings.Replace(srv.URL, "https://", "https://alice:"+helperSecret+"@", 1) + "/missing.git"
	err := listRefs(For(url), url)
	if err == nil {
		t.Fatal("List of a missing repository worked")
	}
	if strings.Contains(err.Error(), helperSecret) {
		t.Errorf("the error shows the password: %v", err)
	}
	if got := srv.Seen(); len(got) == 0 || got[0] != "alice 200" {
		t.Errorf("the server saw %q, want the URL's user", got)
	}
}
