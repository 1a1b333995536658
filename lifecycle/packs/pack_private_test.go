package packs

import (
	"errors"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/gitauth"
	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// TestPackUpdateOverPrivateHTTPS runs the pack's story against a server that needs a token,
// which GITLAB_TOKEN holds for the host GITLAB_HOST names.
func TestPackUpdateOverPrivateHTTPS(t *testing.T) {
	const token = "glpat-pack-token-2718"
	base := t.TempDir()
	srv := testenv.ServeGitHTTPS(t, base, map[string]string{"oauth2": token})
	testenv.Hermetic(t, map[string]string{"GIT_SSL_CAINFO": srv.CAFile,
		"GITLAB_HOST": strings.TrimPrefix(srv.URL, "https://"), "GITLAB_TOKEN": token})
	packStory(t, base, func(name string) string { return srv.URL + "/" + name })
	seen := srv.Seen()
	if len(seen) == 0 {
		t.Fatal("the server saw no request")
	}
	for _, s := range seen {
		if s != "oauth2 200" {
			t.Errorf("the server saw %q, want every request with the token", srv.Seen())
			break
		}
	}
}

// TestPackURLWithSecretRefused refuses a pack whose URL holds a password, from the command
// line and from a configuration edited by hand, and writes nothing.
func TestPackURLWithSecretRefused(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	before := testenv.GitIn(t, dir, nil, "rev-parse", "HEAD")
	for _, src := range []string{"https://bob:pack-secret-31@github.com/team/skills", "https://ghp_0123456789abcdefghijklmnopqrstuvwxyz@github.com/team/skills/tree/main/skills/pdf"} {
		_, err := Add(lifecycletest.Open(t, dir), policy.Pack{Name: "demo", URL: src}, lifecycletest.Lead)
		if !errors.Is(err, gitauth.ErrCredentialsInURL) || !strings.Contains(err.Error(), "GH_TOKEN or GITHUB_TOKEN") {
			t.Errorf("pack add %s: %v, want a refusal that names GH_TOKEN or GITHUB_TOKEN", src, err)
		}
		if err != nil && (strings.Contains(err.Error(), "pack-secret") || strings.Contains(err.Error(), "ghp_0123")) {
			t.Errorf("the refusal shows the secret: %v", err)
		}
	}
	if after := testenv.GitIn(t, dir, nil, "rev-parse", "HEAD"); after != before {
		t.Errorf("a refused pack add committed %s", after)
	}
	testenv.WriteFiles(t, dir, map[string]string{policy.ConfigFile: "packs:\n  - {name: demo, url: 'https://bob:pack-secret-31@example.com/skills'}\n"})
	testenv.CommitAll(t, dir, "a pack by hand")
	_, err := updateT(lifecycletest.Open(t, dir), "demo", UpdateOptions{ActOptions: lifecycletest.Agent})
	if !errors.Is(err, gitauth.ErrCredentialsInURL) || strings.Contains(err.Error(), "pack-secret") {
		t.Errorf("pack update of a URL with a password: %v, want a refusal without the password", err)
	}
	st, err := List(lifecycletest.Open(t, dir))
	if err != nil || len(st) != 1 || st[0].URL != "https://bob:***@example.com/skills" {
		t.Errorf("pack list: %+v %v, want the URL without its password", st, err)
	}
}
