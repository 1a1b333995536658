package interrupt

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// reset gives the test a fresh registry and signal state, with exit recording the status it
// is called with instead of ending the test binary.
func reset(t *testing.T) *[]int {
	t.Helper()
	var codes []int
	st.mu.Lock()
	saved := st.exit
	st.paths = map[uint64]entry{}
	st.critical, st.signaled, st.cancel, st.graceful, st.came = 0, nil, nil, false, make(chan struct{})
	st.exit = func(code int) { codes = append(codes, code) }
	st.mu.Unlock()
	t.Cleanup(func() {
		st.mu.Lock()
		st.exit = saved
		st.paths = map[uint64]entry{}
		st.critical, st.signaled, st.cancel, st.graceful, st.came = 0, nil, nil, false, nil
		st.mu.Unlock()
	})
	return &codes
}

func touch(t *testing.T, path string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func TestCleanupRemovesTrackedFilesAndFolders(t *testing.T) {
	reset(t)
	dir := t.TempDir()
	file := touch(t, filepath.Join(dir, "lock"))
	tmp := filepath.Join(dir, "tmp")
	if err := os.MkdirAll(filepath.Join(tmp, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	touch(t, filepath.Join(tmp, "a", "b", "f"))
	kept := touch(t, filepath.Join(dir, "kept"))
	Track(file)
	TrackDir(tmp)
	Track(kept)() // forgotten at once
	Cleanup()
	if exists(file) || exists(tmp) {
		t.Errorf("after Cleanup: lock file there %v, folder there %v; want both gone", exists(file), exists(tmp))
	}
	if !exists(kept) {
		t.Error("Cleanup removed a file that was untracked")
	}
	// The registry is empty now: a file made again at the same path stays.
	touch(t, file)
	Cleanup()
	if !exists(file) {
		t.Error("a second Cleanup removed a file nobody tracked since the first")
	}
}

func TestUntrackTwiceAndAfterCleanup(t *testing.T) {
	reset(t)
	dir := t.TempDir()
	a := touch(t, filepath.Join(dir, "a"))
	untrack := Track(a)
	Cleanup()
	untrack()
	untrack()
	b := touch(t, filepath.Join(dir, "b"))
	Track(b)
	Cleanup()
	if exists(a) || exists(b) {
		t.Errorf("a there %v, b there %v; want both removed", exists(a), exists(b))
	}
}

func TestTrackRelativePathIsTakenFromWorkingFolder(t *testing.T) {
	reset(t)
	dir := t.TempDir()
	t.Chdir(dir)
	touch(t, "rel.tmp")
	Track("rel.tmp")
	t.Chdir(t.TempDir())
	Cleanup()
	if exists(filepath.Join(dir, "rel.tmp")) {
		t.Error("a relative path tracked in one folder was not removed after the process moved to another")
	}
}

func TestSignalOutsideCriticalRemovesAndExits(t *testing.T) {
	codes := reset(t)
	file := touch(t, filepath.Join(t.TempDir(), "lock"))
	Track(file)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st.mu.Lock()
	st.cancel = cancel
	st.mu.Unlock()
	st.receive(syscall.SIGTERM)
	if len(*codes) != 1 || (*codes)[0] != 143 {
		t.Fatalf("exit codes %v; want [143]", *codes)
	}
	if exists(file) {
		t.Error("the tracked file outlived the signal")
	}
	if ctx.Err() != nil {
		t.Error("the signal cancelled the command's context before exiting; a push's transport would kill the git serving it")
	}
	if !Interrupted() || Signaled() != syscall.SIGTERM {
		t.Errorf("Interrupted %v, Signaled %v; want true, SIGTERM", Interrupted(), Signaled())
	}
}

func TestSignalInsideCriticalWaitsForTheSection(t *testing.T) {
	codes := reset(t)
	file := touch(t, filepath.Join(t.TempDir(), "lock"))
	Track(file)
	done, err := Critical()
	if err != nil {
		t.Fatal(err)
	}
	inner, err := Critical()
	if err != nil {
		t.Fatal(err)
	}
	st.receive(os.Interrupt)
	if len(*codes) != 0 || !exists(file) {
		t.Fatalf("inside a critical section the signal exited %v, file there %v; want no exit and the file kept", *codes, exists(file))
	}
	if _, err := Critical(); !errors.Is(err, ErrInterrupted) {
		t.Errorf("Critical after a signal: %v; want ErrInterrupted", err)
	}
	inner()
	inner() // twice leaves the section once
	if len(*codes) != 0 {
		t.Fatalf("leaving the inner of two sections exited %v", *codes)
	}
	done()
	if len(*codes) != 1 || (*codes)[0] != 130 || exists(file) {
		t.Fatalf("leaving the last section: exit %v, file there %v; want [130] and the file gone", *codes, exists(file))
	}
}

func TestSecondSignalExitsAtOnce(t *testing.T) {
	codes := reset(t)
	file := touch(t, filepath.Join(t.TempDir(), "lock"))
	Track(file)
	done, err := Critical()
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	st.receive(os.Interrupt)
	st.receive(os.Interrupt)
	if len(*codes) != 1 || (*codes)[0] != 130 || exists(file) {
		t.Fatalf("second signal inside a section: exit %v, file there %v; want [130] and the file gone", *codes, exists(file))
	}
}

func TestGracefulOnlyCancels(t *testing.T) {
	codes := reset(t)
	file := touch(t, filepath.Join(t.TempDir(), "lock"))
	Track(file)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st.mu.Lock()
	st.cancel = cancel
	st.mu.Unlock()
	Gracefully()
	if !IsGraceful() {
		t.Fatal("IsGraceful false after Gracefully")
	}
	st.receive(syscall.SIGHUP)
	if len(*codes) != 0 || !exists(file) || ctx.Err() == nil {
		t.Fatalf("graceful command: exit %v, file there %v, context %v; want no exit, the file kept, the context cancelled", *codes, exists(file), ctx.Err())
	}
	st.receive(syscall.SIGHUP)
	if len(*codes) != 1 || (*codes)[0] != 129 || exists(file) {
		t.Fatalf("second signal to a graceful command: exit %v, file there %v; want [129] and the file gone", *codes, exists(file))
	}
}

type otherSignal struct{}

func (otherSignal) String() string { return "other" }
func (otherSignal) Signal()        {}

func TestExitCode(t *testing.T) {
	for _, c := range []struct {
		sig  os.Signal
		want int
	}{{os.Interrupt, 130}, {syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}, {syscall.SIGPIPE, 141}, {otherSignal{}, 130}} {
		if got := ExitCode(c.sig); got != c.want {
			t.Errorf("ExitCode(%v) = %d, want %d", c.sig, got, c.want)
		}
	}
}

// BenchmarkTrack measures registering a file and forgetting it, which every loose object
// written pays.
func BenchmarkTrack(b *testing.B) {
	path := filepath.Join(b.TempDir(), "tmp_obj_123456")
	for b.Loop() {
		Track(path)()
	}
}

// TestSettle checks that a failed command waiting for a signal on its way gets it, and that
// without one it waits no longer than it was told.
func TestSettle(t *testing.T) {
	codes := reset(t)
	if sig := Settle(time.Millisecond); sig != nil {
		t.Fatalf("Settle without a signal: %v", sig)
	}
	go func() {
		time.Sleep(5 * time.Millisecond)
		st.receive(syscall.SIGTERM)
	}()
	if sig := Settle(10 * time.Second); sig != syscall.SIGTERM {
		t.Fatalf("Settle while SIGTERM comes: %v", sig)
	}
	st.mu.Lock()
	got := append([]int(nil), *codes...)
	st.mu.Unlock()
	if len(got) != 1 || got[0] != 128+int(syscall.SIGTERM) {
		t.Errorf("exit codes %v; want the signal's", got)
	}
	if sig := Settle(time.Hour); sig != syscall.SIGTERM {
		t.Errorf("Settle after the signal: %v", sig)
	}
}

// exitCodes returns the exit statuses recorded so far, read under the lock a timer's stop
// takes.
func exitCodes(codes *[]int) []int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return append([]int(nil), *codes...)
}

// TestPipeGivesWayToTheSignalThatFollows checks that a SIGPIPE, which a git child stopped by
// a signal to the group can raise first, is reported as the signal that follows it.
func TestPipeGivesWayToTheSignalThatFollows(t *testing.T) {
	codes := reset(t)
	file := touch(t, filepath.Join(t.TempDir(), "lock"))
	Track(file)
	st.receive(syscall.SIGPIPE)
	if got := exitCodes(codes); len(got) != 0 || !exists(file) {
		t.Fatalf("a broken pipe stopped at once: exit %v, file there %v", got, exists(file))
	}
	st.receive(syscall.SIGTERM)
	if got := exitCodes(codes); len(got) != 1 || got[0] != 143 || exists(file) {
		t.Fatalf("SIGTERM after a broken pipe: exit %v, file there %v; want [143] and the file gone", got, exists(file))
	}
	time.Sleep(2 * pipeSettle)
	if got := exitCodes(codes); len(got) != 1 {
		t.Errorf("the broken pipe's own stop ran too: exit %v", got)
	}
}

// TestPipeAloneStops checks that a broken pipe no other signal follows stops the command
// with 141, and that further broken pipes do not count as a second signal.
func TestPipeAloneStops(t *testing.T) {
	codes := reset(t)
	file := touch(t, filepath.Join(t.TempDir(), "lock"))
	Track(file)
	st.receive(syscall.SIGPIPE)
	st.receive(syscall.SIGPIPE)
	for deadline := time.Now().Add(10 * time.Second); len(exitCodes(codes)) == 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if got := exitCodes(codes); len(got) != 1 || got[0] != 141 || exists(file) {
		t.Fatalf("broken pipe alone: exit %v, file there %v; want [141] and the file gone", got, exists(file))
	}
}

// TestPipeThenSignalInsideCriticalIsOneSignal checks that a broken pipe and the signal behind
// it do not cut a critical section short as two signals would.
func TestPipeThenSignalInsideCriticalIsOneSignal(t *testing.T) {
	codes := reset(t)
	done, err := Critical()
	if err != nil {
		t.Fatal(err)
	}
	st.receive(syscall.SIGPIPE)
	st.receive(os.Interrupt)
	if got := exitCodes(codes); len(got) != 0 {
		t.Fatalf("a broken pipe and a Ctrl-C inside a section exited %v; want the section to finish", got)
	}
	done()
	if got := exitCodes(codes); len(got) != 1 || got[0] != 130 {
		t.Fatalf("leaving the section: exit %v; want [130]", got)
	}
}

// TestRemoveDirWhileFilesAreMade checks that a tracked folder is removed even when the
// command, which goes on while the signal is handled, writes a file there after the first
// removal, making the folders it needs as a fetch does. The writer runs right after the first
// removal, so the test does not depend on how the two are scheduled.
func TestRemoveDirWhileFilesAreMade(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "scratch")
	sub := filepath.Join(dir, "objects", "pack")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	removals := 0
	removeDirWith(dir, func(path string) error {
		err := os.RemoveAll(path)
		if removals++; removals == 1 {
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(sub, "tmp_pack"), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return err
	})
	if exists(dir) {
		t.Errorf("%s is still there after removeDir", dir)
	}
	if removals < 2 {
		t.Errorf("removeDir removed the folder %d time(s); the writer brought it back, so want 2 or more", removals)
	}
}
