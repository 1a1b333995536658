package agentsync

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRun runs the git CLI in dir and fails the test on an error.
func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@example.com",
		"GIT_COMMITTER_NAME=A", "GIT_COMMITTER_EMAIL=a@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestCachedClone checks the cached clone of a file:// URL: created whole on first use with
// HEAD where the source's points, fetched (and pruned) on the next, used as it is offline,
// and refused when it is a link or the clone of another URL.
func TestCachedClone(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	src := t.TempDir()
	gitRun(t, src, "init", "-q", "-b", "trunk")
	gitRun(t, src, "commit", "-q", "--allow-empty", "-m", "one")
	gitRun(t, src, "branch", "gone")
	url := "file://" + src

	if _, _, _, err := cachedClone(url, true, nil); err == nil || !strings.Contains(err.Error(), "no cached copy") {
		t.Fatalf("offline without a cache: %v", err)
	}
	dir, lock, _, err := cachedClone(url, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	lock.release()
	if got := gitRun(t, dir, "symbolic-ref", "HEAD"); got != "refs/heads/trunk" {
		t.Errorf("HEAD = %s; want refs/heads/trunk", got)
	}
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Errorf("cache folder holds %v; want only the clone", entries)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(filepath.Dir(dir)), "repo-locks", filepath.Base(dir)+".lock")); err != nil {
		t.Errorf("the clone's lock file: %v", err)
	}

	gitRun(t, src, "commit", "-q", "--allow-empty", "-m", "two")
	gitRun(t, src, "branch", "-D", "gone")
	mustClone(t, url, false)
	if got, want := gitRun(t, dir, "rev-parse", "trunk"), gitRun(t, src, "rev-parse", "trunk"); got != want {
		t.Errorf("cached trunk %s; want %s", got, want)
	}
	if out := gitRun(t, dir, "branch", "--list", "gone"); out != "" {
		t.Errorf("deleted branch still cached: %s", out)
	}
	mustClone(t, url, true)

	real := dir + ".real"
	if err := os.Rename(dir, real); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, dir); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := cachedClone(url, true, nil); err == nil || !strings.Contains(err.Error(), "is a link") {
		t.Fatalf("linked cache: %v", err)
	}
	os.Remove(dir)
	if err := os.Rename(real, dir); err != nil {
		t.Fatal(err)
	}
	gitRun(t, dir, "config", "remote.origin.url", "file:///elsewhere")
	if _, _, _, err := cachedClone(url, true, nil); err == nil || !strings.Contains(err.Error(), "not a clone of "+url) {
		t.Fatalf("cache of another URL: %v", err)
	}
}

// mustClone makes the cached clone of url current and lets its lock go.
func mustClone(t *testing.T, url string, offline bool) string {
	t.Helper()
	dir, lock, _, err := cachedClone(url, offline, nil)
	if err != nil {
		t.Fatal(err)
	}
	lock.release()
	return dir
}

// TestCachedCloneConcurrentFetches fetches new commits into one cached clone from many
// goroutines at once, each reading the clone's refs while it holds the lock: every fetch and
// read succeeds and the clone stays sound.
func TestCachedCloneConcurrentFetches(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	src := t.TempDir()
	gitRun(t, src, "init", "-q", "-b", "trunk")
	gitRun(t, src, "commit", "-q", "--allow-empty", "-m", "one")
	url := "file://" + src
	dir := mustClone(t, url, false)
	for round := range 4 {
		for i := range 5 {
			gitRun(t, src, "commit", "-q", "--allow-empty", "-m", fmt.Sprintf("round %d, commit %d", round, i))
			gitRun(t, src, "branch", "-f", fmt.Sprintf("b%d", i))
		}
		want := gitRun(t, src, "rev-parse", "trunk")
		errs := make(chan error, 8)
		for range 8 {
			go func() {
				d, lock, _, err := cachedClone(url, false, nil)
				if err == nil {
					var got []byte
					got, err = os.ReadFile(filepath.Join(d, "refs", "heads", "trunk"))
					if err == nil && strings.TrimSpace(string(got)) != want {
						err = fmt.Errorf("trunk read as %q while the lock was held; want %s", got, want)
					}
					lock.release()
				}
				errs <- err
			}()
		}
		for range 8 {
			if err := <-errs; err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
	}
	gitRun(t, dir, "fsck", "--no-progress")
}
