package gitstore

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillgit/skillgit/internal/procowner"
)

// plantLock creates lockPath as a lock file that owner holds, with the owner record skillgit
// writes; an owner with pid 0 plants a lock without a record, as git leaves one.
func plantLock(t *testing.T, r *Repo, lockPath string, owner procowner.Owner) {
	t.Helper()
	f, err := os.OpenFile(lockPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if owner.PID == 0 {
		return
	}
	id, ok := fileID(f)
	if !ok {
		t.Fatal("no file id")
	}
	rec := append(owner.Marshal(), []byte("lock "+lockPath+"\nfile "+id+"\n")...)
	if err := os.MkdirAll(filepath.Dir(r.Locks().ownerPath(lockPath)), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(r.Locks().ownerPath(lockPath), rec, 0o666); err != nil {
		t.Fatal(err)
	}
}

// refToLock makes a repository and a commit for refs/heads/main, which does not exist yet,
// and returns the path of the ref's lock file, its folder made.
func refToLock(t *testing.T) (*Repo, Hash, string, string) {
	t.Helper()
	r := diskRepo(false)(t)
	c1 := mustCommit(t, r, mustTree(t, r), "1")
	const ref = "refs/heads/main"
	lockPath := r.Refs().refPath(ref) + ".lock"
	if err := os.MkdirAll(filepath.Dir(lockPath), 0o777); err != nil {
		t.Fatal(err)
	}
	return r, c1, ref, lockPath
}

// exitedProcess is the owner record of a child process that has exited.
func exitedProcess(t *testing.T) procowner.Owner {
	t.Helper()
	cmd := exec.Command("sh", "-c", "exit 0")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	o := procowner.Self()
	o.PID, o.Start = cmd.Process.Pid, 0
	return o
}

// captureStderr runs fn and returns what it wrote on os.Stderr.
func captureStderr(t *testing.T, fn func()) string {
	t.Helper()
	rd, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stderr
	os.Stderr = wr
	fn()
	os.Stderr = old
	wr.Close()
	out, _ := io.ReadAll(rd)
	return string(out)
}

func TestStaleLockOfGoneOwnerIsRemoved(t *testing.T) {
	r, c1, ref, lockPath := refToLock(t)
	plantLock(t, r, lockPath, exitedProcess(t))
	var err error
	out := captureStderr(t, func() { err = r.Updates().Update(ref, c1, ZeroHash, "after a crash") })
	if err != nil {
		t.Fatalf("UpdateRef over the lock of a dead process: %v", err)
	}
	if !strings.Contains(out, "removed the stale lock "+lockPath) || !strings.Contains(out, "which is gone") {
		t.Errorf("stderr = %q; want the notice naming the lock", out)
	}
	if h, err := r.Refs().Get(ref); err != nil || h != c1 {
		t.Errorf("ref = %v, %v; want %v", h, err, c1)
	}
	checkNoLocksLeft(t, r)
}

func TestLockWithoutRecordIsRefusedNamingEveryLock(t *testing.T) {
	r, c1, ref, lockPath := refToLock(t)
	plantLock(t, r, lockPath, procowner.Owner{})
	indexLock := filepath.Join(r.GitDir(), "index.lock")
	plantLock(t, r, indexLock, exitedProcess(t)) // another lock, stale, met only later
	err := r.Updates().Update(ref, c1, ZeroHash, "blocked")
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("UpdateRef over git's lock: %v; want ErrLocked", err)
	}
	for _, want := range []string{lockPath, "no owner record", "also locked: " + indexLock, "which is gone", "skillgit doctor --fix"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if _, err := os.Lstat(lockPath); err != nil {
		t.Errorf("git's lock was removed: %v", err)
	}
}

func TestLockOfRunningOwnerIsKept(t *testing.T) {
	r, c1, ref, lockPath := refToLock(t)
	sleeper := exec.Command("sleep", "30")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { sleeper.Process.Kill(); sleeper.Wait() }()
	o := procowner.Self()
	o.PID, o.Start = sleeper.Process.Pid, 0
	plantLock(t, r, lockPath, o)
	err := r.Updates().Update(ref, c1, ZeroHash, "blocked")
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "still running") {
		t.Fatalf("UpdateRef over a live owner's lock: %v; want ErrLocked saying it is still running", err)
	}
	if _, err := os.Lstat(lockPath); err != nil {
		t.Errorf("a live owner's lock was removed: %v", err)
	}
}

// TestRecordNamesTheFile checks that a record is never taken for a later lock of the same
// name: a lock made after the recorded one is gone is git's as far as skillgit knows.
func TestRecordNamesTheFile(t *testing.T) {
	r := diskRepo(false)(t)
	lockPath := filepath.Join(r.GitDir(), "HEAD.lock")
	plantLock(t, r, lockPath, exitedProcess(t))
	if err := os.Remove(lockPath); err != nil {
		t.Fatal(err)
	}
	// File times advance by the kernel's clock tick; a later lock is made at least one later.
	time.Sleep(20 * time.Millisecond)
	plantLock(t, r, lockPath, procowner.Owner{})
	o, err := r.Locks().Inspect(lockPath)
	if err != nil || o.Recorded {
		t.Fatalf("InspectLock of a new lock with an old record: %+v, %v; want not recorded", o, err)
	}
}

func checkNoLocksLeft(t *testing.T, r *Repo) {
	t.Helper()
	if locks, err := r.Locks().List(); err != nil || len(locks) > 0 {
		t.Errorf("lock files left: %v, %v", locks, err)
	}
	entries, _ := os.ReadDir(filepath.Join(r.CommonDir(), filepath.FromSlash(OwnersDir)))
	if len(entries) > 0 {
		t.Errorf("owner records left: %d", len(entries))
	}
}

func TestLocksTakenAndReleasedLeaveNothing(t *testing.T) {
	r := diskRepo(false)(t)
	tree := mustTree(t, r)
	c1 := mustCommit(t, r, tree, "1")
	c2 := mustCommit(t, r, tree, "2", c1)
	for _, step := range []struct{ newH, oldH Hash }{{c1, ZeroHash}, {c2, c1}, {c2, c1}, {ZeroHash, c2}} {
		_ = r.Updates().Update("refs/heads/x", step.newH, step.oldH, "step")
	}
	if err := r.Updates().SetHeadBranch("refs/heads/main"); err != nil {
		t.Fatal(err)
	}
	checkNoLocksLeft(t, r)
}

// TestPackLockOwnerIsItsContent checks that the pack lock, which holds its owner's record
// itself, is judged by it: a gone owner's lock is stale and removed, a live one's kept.
func TestPackLockOwnerIsItsContent(t *testing.T) {
	r := diskRepo(false)(t)
	p := filepath.Join(r.Objects().objectsDir(), packLockName)
	if err := os.WriteFile(p, procowner.Self().Marshal(), 0o666); err != nil {
		t.Fatal(err)
	}
	if o, err := r.Locks().Inspect(p); err != nil || !o.Recorded || o.Gone {
		t.Fatalf("InspectLock of this process's pack lock: %+v, %v", o, err)
	}
	if r.Locks().RemoveStale(p) {
		t.Fatal("a live owner's pack lock was removed")
	}
	if err := os.WriteFile(p, exitedProcess(t).Marshal(), 0o666); err != nil {
		t.Fatal(err)
	}
	if o, err := r.Locks().Inspect(p); err != nil || !o.Recorded || !o.Gone {
		t.Fatalf("InspectLock of a gone owner's pack lock: %+v, %v", o, err)
	}
	if !r.Locks().RemoveStale(p) || fileExists(p) {
		t.Fatal("a gone owner's pack lock was not removed")
	}
}
