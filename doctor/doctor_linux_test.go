package doctor_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillgit/skillgit/internal/testenv"
)

// TestDoctorLeavesTheLockOfARunningGit runs a partial git commit, which holds index.lock
// closed while its editor runs: doctor leaves that lock, however old, while git runs, and
// removes it once git was killed.
func TestDoctorLeavesTheLockOfARunningGit(t *testing.T) {
	dir, g := doctorRepo(t)
	notes := filepath.Join(dir, "notes.txt")
	testenv.WriteFiles(t, dir, map[string]string{"notes.txt": "first\n"})
	testenv.Git(t, dir, "add", "notes.txt")
	testenv.Git(t, dir, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "notes")
	if err := os.WriteFile(notes, []byte("edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := exec.Command("git", "-c", "core.hooksPath=/dev/null", "commit", "-q", "notes.txt")
	c.Dir = dir
	c.Env = append(os.Environ(), "GIT_EDITOR=sleep 60; true")
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out strings.Builder
	c.Stdout, c.Stderr = &out, &out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	stop := func() { syscall.Kill(-c.Process.Pid, syscall.SIGKILL); c.Wait() }
	t.Cleanup(stop)
	lock := filepath.Join(g.GitDir(), "index.lock")
	for deadline := time.Now().Add(10 * time.Second); !editorRuns(c.Process.Pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("git commit started no editor: %s", out.String())
		}
	}
	mustExist(t, lock, true)
	long := time.Now().Add(-time.Hour)
	if err := os.Chtimes(lock, long, long); err != nil {
		t.Fatal(err)
	}
	rep := runDoctor(t, g, true)
	if f := findingFor(t, rep, lock); f.Fixed || !strings.Contains(f.Left, "git process "+strconv.Itoa(c.Process.Pid)) {
		t.Fatalf("the lock of a running git: %+v (git: %s)", f, out.String())
	}
	mustExist(t, lock, true)

	stop()
	rep = runDoctor(t, g, true)
	if f := findingFor(t, rep, lock); !f.Fixed {
		t.Fatalf("the lock of a killed git: %+v", f)
	}
	mustExist(t, lock, false)
	testenv.FsckStrict(t, dir)
}

// editorRuns reports whether the editor, sleep, runs in process group pgid: git has written
// its locks by then.
func editorRuns(pgid int) bool {
	procs, _ := os.ReadDir("/proc")
	for _, e := range procs {
		comm, err := os.ReadFile("/proc/" + e.Name() + "/comm")
		if err != nil || strings.TrimSpace(string(comm)) != "sleep" {
			continue
		}
		if g, err := syscall.Getpgid(atoi(e.Name())); err == nil && g == pgid {
			return true
		}
	}
	return false
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
