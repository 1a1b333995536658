package interrupt

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// childEnv switches the test binary into a child that holds a tracked file and waits for a
// signal; its value says where the child is when the signal comes.
const childEnv = "SKILLGIT_INTERRUPT_TEST_CHILD"

func TestMain(m *testing.M) {
	if mode := os.Getenv(childEnv); mode != "" {
		runChild(mode, os.Getenv(childEnv+"_DIR"))
		os.Exit(0) // never reached when the signal does its work
	}
	os.Exit(m.Run())
}

// runChild tracks dir/lock and writes dir/ready once it waits: outside any critical section,
// inside a short one that writes dir/finished when it ends, or inside a long one.
func runChild(mode, dir string) {
	_, stop := Notify(context.Background())
	defer stop()
	lock := filepath.Join(dir, "lock")
	if err := os.WriteFile(lock, []byte("held\n"), 0o644); err != nil {
		os.Exit(3)
	}
	Track(lock)
	section := map[string]time.Duration{"inside": 700 * time.Millisecond, "long": time.Minute}[mode]
	if section > 0 {
		done, err := Critical()
		if err != nil {
			os.Exit(4)
		}
		mark(dir, "ready")
		time.Sleep(section)
		mark(dir, "finished")
		done()
	} else {
		mark(dir, "ready")
	}
	time.Sleep(time.Minute)
}

func mark(dir, name string) {
	if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
		os.Exit(5)
	}
}

// child is a started child process and the folder it works in.
type child struct {
	cmd  *exec.Cmd
	dir  string
	done chan error
}

func startChild(t *testing.T, mode string) *child {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+mode, childEnv+"_DIR="+dir)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, dir: dir, done: make(chan error, 1)}
	go func() { c.done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-c.done
	})
	deadline := time.Now().Add(20 * time.Second)
	for !exists(filepath.Join(dir, "ready")) {
		if time.Now().After(deadline) {
			t.Fatalf("child %s never got ready", mode)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return c
}

func (c *child) signal(t *testing.T) {
	t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
}

// wait returns the child's exit status, failing when it takes longer than within.
func (c *child) wait(t *testing.T, within time.Duration) int {
	t.Helper()
	select {
	case err := <-c.done:
		c.done <- err // for the cleanup
		var exit *exec.ExitError
		if err == nil {
			return 0
		}
		if !errors.As(err, &exit) {
			t.Fatal(err)
		}
		return exit.ExitCode()
	case <-time.After(within):
		t.Fatalf("child still running %v after the signal", within)
	}
	return -1
}

func (c *child) has(name string) bool { return exists(filepath.Join(c.dir, name)) }

func TestChildSignalledOutsideCriticalExitsAtOnce(t *testing.T) {
	c := startChild(t, "outside")
	c.signal(t)
	if code := c.wait(t, 10*time.Second); code != 130 {
		t.Fatalf("exit status %d, want 130", code)
	}
	if c.has("lock") {
		t.Error("the tracked file outlived the child")
	}
}

func TestChildSignalledInsideCriticalFinishesTheSection(t *testing.T) {
	c := startChild(t, "inside")
	c.signal(t)
	if code := c.wait(t, 20*time.Second); code != 130 {
		t.Fatalf("exit status %d, want 130", code)
	}
	if !c.has("finished") {
		t.Error("the child exited before its critical section finished")
	}
	if c.has("lock") {
		t.Error("the tracked file outlived the child")
	}
}

func TestChildSecondSignalInsideCriticalExitsAtOnce(t *testing.T) {
	c := startChild(t, "long")
	c.signal(t)
	time.Sleep(300 * time.Millisecond)
	select {
	case err := <-c.done:
		c.done <- err
		t.Fatalf("the child left its critical section on the first signal: %v", err)
	default:
	}
	if !c.has("lock") {
		t.Fatal("the tracked file went on the first signal, inside the critical section")
	}
	c.signal(t)
	if code := c.wait(t, 10*time.Second); code != 130 {
		t.Fatalf("exit status %d, want 130", code)
	}
	if c.has("finished") {
		t.Error("the critical section finished; the second signal should have cut it short")
	}
	if c.has("lock") {
		t.Error("the tracked file outlived the child")
	}
}
