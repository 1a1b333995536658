package remotes

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/initrepo"
)

// TestPushFetchPrivateHTTPS pushes to and fetches from a remote that needs credentials,
// which git's credential helper gives: the git CLI and skillgit find them alike.
func TestPushFetchPrivateHTTPS(t *testing.T) {
	home := testenv.Hermetic(t, map[string]string{"GITHUB_TOKEN": "", "GH_TOKEN": "", "GITLAB_TOKEN": ""})
	const secret = "helper-password-5150"
	helper := filepath.Join(home, "helper.sh")
	testenv.WriteFiles(t, home, map[string]string{
		"helper.sh":  "#!/bin/sh\n[ \"$1\" = get ] && echo username=alice && echo password=" + secret + "\nexit 0\n",
		".gitconfig": "[credential]\n\thelper = " + helper + "\n",
	})
	if err := os.Chmod(helper, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	base := t.TempDir()
	bare := filepath.Join(base, "skills.git")
	if _, err := initrepo.Init(initrepo.Options{Dir: bare, Bare: true}); err != nil {
		t.Fatal(err)
	}
	srv := testenv.ServeGitHTTPS(t, base, map[string]string{"alice": secret})
	t.Setenv("GIT_SSL_CAINFO", srv.CAFile)
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	gitClone(t, srv.URL+"/skills.git", a)
	if _, err := initrepo.Init(initrepo.Options{Dir: a}); err != nil {
		t.Fatal(err)
	}
	push(t, a)
	if got, want := refAt(t, bare, "main"), refAt(t, a, "main"); got != want {
		t.Fatalf("the server's main is %s, want %s", got, want)
	}
	gitClone(t, srv.URL+"/skills.git", b)
	id := lifecycletest.ProposeNew(t, a, "pdf-tools").ID
	push(t, a, id)
	fetch(t, b)
	if refAt(t, b, "candidate/"+id) == "" {
		t.Errorf("the candidate did not reach b")
	}
}

// TestRemoteURLSecretNotShown checks that a remote whose URL holds a password, as some CI
// systems write it, is used, and that no error shows the password.
func TestRemoteURLSecretNotShown(t *testing.T) {
	testenv.Hermetic(t, nil)
	base := t.TempDir()
	srv := testenv.ServeGitHTTPS(t, base, map[string]string{"ci": "job-token-8086"})
	t.Setenv("GIT_SSL_CAINFO", srv.CAFile)
	dir := lifecycletest.NewRepo(t)
	for _, url := range []string{
		strings.Replace(srv.URL, "https://", "https://ci:job-token-8086@", 1) + "/missing.git",
		strings.Replace(srv.URL, "https://", "https://ci:wrong-token-1234@", 1) + "/skills.git",
	} {
		testenv.Git(t, dir, "remote", "add", "origin", url)
		_, err := Fetch(context.Background(), lifecycletest.Open(t, dir), FetchOptions{})
		if err == nil {
			t.Fatalf("fetch from %s worked", url)
		}
		if msg := err.Error(); strings.Contains(msg, "-token-") || !strings.Contains(msg, "ci:***@127.0.0.1") {
			t.Errorf("the error shows the password, or not the URL without it: %v", err)
		}
		if strings.Contains(url, "wrong") && !strings.Contains(err.Error(), "refused the credentials in the URL") {
			t.Errorf("the error does not say the URL's credentials were refused: %v", err)
		}
		testenv.Git(t, dir, "remote", "remove", "origin")
	}
	if got := srv.Seen(); len(got) < 2 || got[0] != "ci 200" || got[len(got)-1] != "ci 401" {
		t.Errorf("the server saw %q, want the URL's credentials sent", got)
	}
}
