package gitstore

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestConcurrentProcessesCAS moves one ref from several processes at once,
// some of them the git command line, while another loop keeps resolving
// the ref with git. No increment may be lost and the ref must resolve
// every single time.
func TestConcurrentProcessesCAS(t *testing.T) {
	const procs, each, gitIncrements = 4, 50, 20
	const ref = "refs/heads/x"
	r := diskRepo(false)(t)
	dir := r.WorktreeDir()
	start := mustCommit(t, r, mustTree(t, r), "0\n")
	if err := r.Updates().Update(ref, start, ZeroHash, "start"); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var resolved, failed atomic.Int64
	var readers sync.WaitGroup
	readers.Add(1)
	go func() {
		defer readers.Done()
		resolveLoop(dir, ref, stop, &resolved, &failed)
	}()
	var writers sync.WaitGroup
	errs := make(chan error, procs+1)
	for i := range procs {
		writers.Add(1)
		go func() {
			defer writers.Done()
			cmd := exec.Command(exe, "-test.run=^$")
			cmd.Env = append(os.Environ(), fmt.Sprintf("%s=cas %s %s %d p%d", helperEnv, dir, ref, each, i))
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("helper %d: %v: %s", i, err, out)
			}
		}()
	}
	writers.Add(1)
	go func() {
		defer writers.Done()
		if err := gitIncrementLoop(dir, ref, gitIncrements); err != nil {
			errs <- err
		}
	}()
	writers.Wait()
	close(stop)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if failed.Load() > 0 || resolved.Load() == 0 {
		t.Errorf("git rev-parse failed %d times out of %d", failed.Load(), resolved.Load()+failed.Load())
	}
	checkCounter(t, r, ref, procs*each+gitIncrements)
	gitRun(t, dir, "fsck", "--strict", "--no-dangling")
}

func resolveLoop(dir, ref string, stop <-chan struct{}, resolved, failed *atomic.Int64) {
	for {
		select {
		case <-stop:
			return
		default:
		}
		if _, err := gitErr(dir, "", "rev-parse", "--verify", "-q", ref); err != nil {
			failed.Add(1)
		} else {
			resolved.Add(1)
		}
	}
}

// gitIncrementLoop does what casIncrement does with git commands:
// commit-tree, then update-ref with the expected old value.
func gitIncrementLoop(dir, ref string, n int) error {
	for i := 0; i < n; {
		cur, err := gitErr(dir, "", "rev-parse", "--verify", ref)
		if err != nil {
			return err
		}
		cur = strings.TrimSpace(cur)
		msg, err := gitErr(dir, "", "log", "-1", "--format=%s", cur)
		if err != nil {
			return err
		}
		count, err := strconv.Atoi(strings.Fields(msg)[0])
		if err != nil {
			return err
		}
		next, err := gitErr(dir, "", "commit-tree", cur+"^{tree}", "-p", cur, "-m", fmt.Sprintf("%d by git", count+1))
		if err != nil {
			return err
		}
		if _, err := gitErr(dir, "", "update-ref", ref, strings.TrimSpace(next), cur); err == nil {
			i++
		}
	}
	return nil
}
