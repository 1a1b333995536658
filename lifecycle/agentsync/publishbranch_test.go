package agentsync

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/initrepo"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// releaseWithRivalMain makes a skill repository whose publish branch is release, with a main
// branch whose configuration names main, as someone could push it; it returns its file:// URL.
func releaseWithRivalMain(t *testing.T) string {
	t.Helper()
	testenv.Hermetic(t, nil)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	src := filepath.Join(t.TempDir(), "skills")
	if _, err := initrepo.Init(initrepo.Options{Dir: src, Branch: "release"}); err != nil {
		t.Fatal(err)
	}
	testenv.Git(t, src, "checkout", "-q", "-b", "main")
	testenv.WriteFiles(t, src, map[string]string{
		policy.ConfigFile:        string(policy.DefaultConfig("main").Marshal()),
		"skills/helper/SKILL.md": testenv.SkillMD("helper"),
	})
	testenv.CommitAll(t, src, "a publish branch of my own")
	testenv.Git(t, src, "checkout", "-q", "release")
	return "file://" + src
}

// openNamedBranch opens what sf names from project and returns the branch read and the
// warning.
func openNamedBranch(t *testing.T, sf *SyncFile, project string) (string, string) {
	t.Helper()
	lr, lock, warnings, err := openNamed(sf, project, Request{})
	if err != nil {
		t.Fatal(err)
	}
	defer lock.release()
	defer lr.Close()
	return lr.Branch(), strings.Join(warnings, "\n")
}

// TestOpenNamedNeverTriesMainFirst checks the publish branch a sync from a URL reads: the
// repository's HEAD, not a main branch that claims to be one, which is warned of; the lock's
// branch over HEAD; the sync file's branch: over both.
func TestOpenNamedNeverTriesMainFirst(t *testing.T) {
	url := releaseWithRivalMain(t)
	project := t.TempDir()
	sf := &SyncFile{Repository: url}

	branch, warning := openNamedBranch(t, sf, project)
	if branch != "refs/heads/release" {
		t.Fatalf("read %s; want the branch HEAD names, release", branch)
	}
	if !strings.Contains(warning, "branch main holds a .skillgit.yaml naming main the publish branch") || !strings.Contains(warning, url) {
		t.Fatalf("warning %q; want one naming main and the URL", warning)
	}

	lock := &Lock{Repository: url, Branch: "main", Channel: "main", Commit: strings.Repeat("a", 40)}
	if err := WriteLock(filepath.Join(project, LockFileName), lock); err != nil {
		t.Fatal(err)
	}
	if branch, warning = openNamedBranch(t, sf, project); branch != "refs/heads/main" || warning != "" {
		t.Fatalf("with a lock on main: read %s, warning %q; want main, no warning", branch, warning)
	}
	lock.Repository = "file:///another"
	if err := WriteLock(filepath.Join(project, LockFileName), lock); err != nil {
		t.Fatal(err)
	}
	if branch, _ = openNamedBranch(t, sf, project); branch != "refs/heads/release" {
		t.Fatalf("with the lock of another repository: read %s; want release", branch)
	}

	sf.Branch = "release"
	lock.Repository = url
	if err := WriteLock(filepath.Join(project, LockFileName), lock); err != nil {
		t.Fatal(err)
	}
	if branch, _ = openNamedBranch(t, sf, project); branch != "refs/heads/release" {
		t.Fatalf("with branch: release: read %s", branch)
	}
}

// TestCachedCloneRecordsRemoteHead checks that each fetch records the branch the repository's
// HEAD names, and forgets it when HEAD names none; then the one branch whose configuration
// names itself is read, and none when two do.
func TestCachedCloneRecordsRemoteHead(t *testing.T) {
	url := releaseWithRivalMain(t)
	src := strings.TrimPrefix(url, "file://")
	dir := mustClone(t, url, false)
	if got := recordedRemoteHead(dir); got != "release" {
		t.Fatalf("recorded HEAD %q; want release", got)
	}
	testenv.Git(t, src, "symbolic-ref", "HEAD", "refs/heads/main")
	mustClone(t, url, false)
	if got := recordedRemoteHead(dir); got != "main" {
		t.Fatalf("recorded HEAD %q after it moved; want main", got)
	}
	testenv.Git(t, src, "symbolic-ref", "HEAD", "refs/heads/gone")
	mustClone(t, url, false)
	if got := recordedRemoteHead(dir); got != "" {
		t.Fatalf("recorded HEAD %q when it names no branch; want none", got)
	}
	_, _, _, err := openNamed(&SyncFile{Repository: url}, t.TempDir(), Request{})
	if err == nil || !strings.Contains(err.Error(), "HEAD names no branch, and branches main, release each claim") || !strings.Contains(err.Error(), "branch: NAME") {
		t.Fatalf("open with no branch named and two that claim to be: %v", err)
	}
	testenv.Git(t, src, "branch", "-D", "main")
	if branch, _ := openNamedBranch(t, &SyncFile{Repository: url}, t.TempDir()); branch != "refs/heads/release" {
		t.Fatalf("with one branch that claims to be the publish branch: read %s", branch)
	}
}
