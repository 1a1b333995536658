package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// foreignHook is a hook of someone else's: it records its arguments and exits with $FOREIGN_STATUS.
func foreignHook(log string) string {
	return "#!/bin/sh\n# a team's own hook\necho \"foreign $*\" >>'" + log + "'\nexit ${FOREIGN_STATUS:-0}\n"
}

func TestChainedHookRunsFirstAndIsRestored(t *testing.T) {
	dir := newRepo(t)
	log := filepath.Join(t.TempDir(), "log")
	hookPath := filepath.Join(dir, ".git", "hooks", PreCommit)
	original := foreignHook(log)
	writeFile(t, hookPath, original, 0o750)
	exe := fakeSkillgit(t, log, "")

	rep := mustInstall(t, Options{Dir: dir, Executable: exe})
	if got, want := changes(rep), "pre-commit=chained pre-push=installed"; got != want {
		t.Errorf("changes = %q, want %q", got, want)
	}
	chained := hookPath + ChainedSuffix
	if got := readFile(t, chained); got != original {
		t.Errorf("chained hook = %q, want the original", got)
	}
	if got, want := states(mustStatus(t, Options{Dir: dir})), "pre-commit=chained pre-push=installed"; got != want {
		t.Errorf("status = %q, want %q", got, want)
	}
	if again := mustInstall(t, Options{Dir: dir, Executable: exe}); changes(again) != "pre-commit=unchanged pre-push=unchanged" {
		t.Errorf("second install: changes = %q", changes(again))
	}

	// git commit runs the foreign hook first, then skillgit.
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "second")
	if got, want := readFile(t, log), "foreign \nskillgit hook pre-commit\n"; got != want {
		t.Errorf("hooks ran as %q, want %q", got, want)
	}

	// The foreign hook's failure blocks the commit, and skillgit does not run.
	os.Remove(log)
	head := git(t, dir, "rev-parse", "HEAD")
	if _, err := gitErr(dir, []string{"FOREIGN_STATUS=7"}, "commit", "-q", "--allow-empty", "-m", "third"); err == nil {
		t.Error("commit succeeded although the chained hook failed")
	}
	if got := git(t, dir, "rev-parse", "HEAD"); got != head {
		t.Errorf("HEAD moved to %s although the chained hook failed", got)
	}
	if got, want := readFile(t, log), "foreign \n"; got != want {
		t.Errorf("after the chained hook failed, hooks ran as %q, want %q", got, want)
	}

	// skillgit's refusal blocks too.
	os.Remove(log)
	if _, err := gitErr(dir, []string{"FAKE_STATUS=3"}, "commit", "-q", "--allow-empty", "-m", "fourth"); err == nil {
		t.Error("commit succeeded although skillgit refused")
	}

	// Uninstall puts the original back, byte for byte and with its mode.
	rep = mustUninstall(t, Options{Dir: dir})
	if got, want := changes(rep), "pre-commit=restored pre-push=removed"; got != want {
		t.Errorf("uninstall: changes = %q, want %q", got, want)
	}
	if got := readFile(t, hookPath); got != original {
		t.Errorf("restored hook = %q, want %q", got, original)
	}
	fi, err := os.Stat(hookPath)
	if err != nil || fi.Mode().Perm() != 0o750 {
		t.Errorf("restored hook mode = %v (%v), want 0750", fi.Mode().Perm(), err)
	}
	for _, gone := range []string{chained, filepath.Join(dir, ".git", "hooks", PrePush)} {
		if _, err := os.Lstat(gone); !os.IsNotExist(err) {
			t.Errorf("%s still exists after uninstall: %v", gone, err)
		}
	}
	if again := mustUninstall(t, Options{Dir: dir}); changes(again) != "pre-commit=unchanged pre-push=unchanged" {
		t.Errorf("second uninstall: changes = %q", changes(again))
	}
	if got := readFile(t, hookPath); got != original {
		t.Errorf("second uninstall touched the foreign hook: %q", got)
	}
}

func TestChainedSymlinkHookIsKept(t *testing.T) {
	dir := newRepo(t)
	log := filepath.Join(t.TempDir(), "log")
	target := filepath.Join(t.TempDir(), "team-hook")
	writeFile(t, target, foreignHook(log), 0o755)
	hookPath := filepath.Join(dir, ".git", "hooks", PreCommit)
	if err := os.Symlink(target, hookPath); err != nil {
		t.Fatal(err)
	}
	mustInstall(t, Options{Dir: dir, Executable: fakeSkillgit(t, log, "")})
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "second")
	if got, want := readFile(t, log), "foreign \nskillgit hook pre-commit\n"; got != want {
		t.Errorf("hooks ran as %q, want %q", got, want)
	}
	mustUninstall(t, Options{Dir: dir})
	if got, err := os.Readlink(hookPath); err != nil || got != target {
		t.Errorf("restored hook links to %q (%v), want %s", got, err, target)
	}
}

func TestUninstallLeavesForeignHookAlone(t *testing.T) {
	dir := newRepo(t)
	hookPath := filepath.Join(dir, ".git", "hooks", PrePush)
	writeFile(t, hookPath, "#!/bin/sh\nexit 0\n", 0o700)
	rep := mustUninstall(t, Options{Dir: dir})
	if got, want := states(rep)+" / "+changes(rep), "pre-commit=absent pre-push=foreign / pre-commit=unchanged pre-push=unchanged"; got != want {
		t.Errorf("uninstall = %q, want %q", got, want)
	}
	if got := readFile(t, hookPath); got != "#!/bin/sh\nexit 0\n" {
		t.Errorf("uninstall changed a foreign hook: %q", got)
	}
}

func TestInstallAfterInterruptedChain(t *testing.T) {
	dir := newRepo(t)
	hooksDir := filepath.Join(dir, ".git", "hooks")
	// A hook kept aside with nothing in its place, as an interrupted install leaves it.
	writeFile(t, filepath.Join(hooksDir, PreCommit+ChainedSuffix), "#!/bin/sh\nexit 0\n", 0o755)
	rep := mustInstall(t, Options{Dir: dir, Executable: "/bin/true"})
	if got, want := states(rep), "pre-commit=chained pre-push=installed"; got != want {
		t.Errorf("states = %q, want %q", got, want)
	}
	mustUninstall(t, Options{Dir: dir})
	if got := readFile(t, filepath.Join(hooksDir, PreCommit)); got != "#!/bin/sh\nexit 0\n" {
		t.Errorf("uninstall did not put the kept hook back: %q", got)
	}
}

func TestPrePushStdinReachesBoth(t *testing.T) {
	remote := filepath.Join(t.TempDir(), "remote.git")
	git(t, "", "init", "-q", "--bare", remote)
	dir := newRepo(t)
	git(t, dir, "remote", "add", "origin", remote)
	tmp := t.TempDir()
	foreignIn, skillgitIn, log := filepath.Join(tmp, "foreign.in"), filepath.Join(tmp, "skillgit.in"), filepath.Join(tmp, "log")
	writeFile(t, filepath.Join(dir, ".git", "hooks", PrePush),
		"#!/bin/sh\necho \"foreign $*\" >>'"+log+"'\ncat >'"+foreignIn+"'\n", 0o755)
	mustInstall(t, Options{Dir: dir, Executable: fakeSkillgit(t, log, skillgitIn)})

	scratch := filepath.Join(tmp, "scratch")
	if err := os.Mkdir(scratch, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := gitErr(dir, []string{"TMPDIR=" + scratch}, "push", "-q", "origin", "main"); err != nil {
		t.Fatal(err)
	}
	head := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
	want := "refs/heads/main " + head + " refs/heads/main " + strings.Repeat("0", 40) + "\n"
	if got := readFile(t, foreignIn); got != want {
		t.Errorf("chained hook read %q, want %q", got, want)
	}
	if got := readFile(t, skillgitIn); got != want {
		t.Errorf("skillgit read %q, want %q", got, want)
	}
	if got, want := readFile(t, log), "foreign origin "+remote+"\nskillgit hook pre-push origin "+remote+"\n"; got != want {
		t.Errorf("hooks ran as %q, want %q", got, want)
	}
	if left := listDir(t, scratch); len(left) != 0 {
		t.Errorf("the shim left temporary files: %q", left)
	}
}

func TestPrePushStdinWithoutChainedHook(t *testing.T) {
	remote := filepath.Join(t.TempDir(), "remote.git")
	git(t, "", "init", "-q", "--bare", remote)
	dir := newRepo(t)
	tmp := t.TempDir()
	skillgitIn := filepath.Join(tmp, "skillgit.in")
	mustInstall(t, Options{Dir: dir, Executable: fakeSkillgit(t, filepath.Join(tmp, "log"), skillgitIn)})
	git(t, dir, "push", "-q", remote, "main:refs/heads/other")
	head := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
	want := "refs/heads/main " + head + " refs/heads/other " + strings.Repeat("0", 40) + "\n"
	if got := readFile(t, skillgitIn); got != want {
		t.Errorf("skillgit read %q, want %q", got, want)
	}
	// A refusal stops the push.
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "second")
	if _, err := gitErr(dir, []string{"FAKE_STATUS=3"}, "push", "-q", remote, "main:refs/heads/other"); err == nil {
		t.Error("push succeeded although skillgit refused")
	}
	if got := strings.TrimSpace(git(t, remote, "rev-parse", "refs/heads/other")); got != head {
		t.Errorf("remote ref moved to %s although skillgit refused", got)
	}
}

func TestLinkedWorktreeSharesHooks(t *testing.T) {
	dir := newRepo(t)
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, dir, "worktree", "add", "-q", "-b", "feature", wt)
	log := filepath.Join(t.TempDir(), "log")
	rep := mustInstall(t, Options{Dir: wt, Executable: fakeSkillgit(t, log, "")})
	want := filepath.Join(dir, ".git", "hooks")
	if rep.Dir != want {
		t.Errorf("hooks folder from the worktree = %s, want %s", rep.Dir, want)
	}
	if st := mustStatus(t, Options{Dir: dir}); st.Dir != want || states(st) != "pre-commit=installed pre-push=installed" {
		t.Errorf("status from the main worktree = %s %q", st.Dir, states(st))
	}
	git(t, wt, "commit", "-q", "--allow-empty", "-m", "in the worktree")
	if got := readFile(t, log); got != "skillgit hook pre-commit\n" {
		t.Errorf("commit in the linked worktree ran %q", got)
	}
}

func TestShimFallsBackToPath(t *testing.T) {
	dir := newRepo(t)
	tmp := t.TempDir()
	log := filepath.Join(tmp, "log")
	gone := filepath.Join(tmp, "gone", "skillgit")
	mustInstall(t, Options{Dir: dir, Executable: gone})
	bin := filepath.Join(tmp, "bin")
	onPath := fakeSkillgit(t, log, "")
	writeFile(t, filepath.Join(bin, "skillgit"), readFile(t, onPath), 0o755)
	path := "PATH=" + bin + ":" + os.Getenv("PATH")
	if _, err := gitErr(dir, []string{path}, "commit", "-q", "--allow-empty", "-m", "second"); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, log); got != "skillgit hook pre-commit\n" {
		t.Errorf("skillgit on PATH ran as %q", got)
	}
	// With neither, the hook fails closed and says why.
	_, err := gitErr(dir, []string{"PATH=/usr/bin:/bin"}, "commit", "-q", "--allow-empty", "-m", "third")
	if err == nil || !strings.Contains(err.Error(), "is gone and skillgit is not on PATH") {
		t.Errorf("commit without skillgit: err = %v", err)
	}
}
