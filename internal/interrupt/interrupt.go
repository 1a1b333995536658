// Package interrupt makes a command stop cleanly on a signal: it cancels the command's
// context, removes every lock file and temporary file or folder the process registered, and
// exits with 128 plus the signal's number, as shells report a process a signal ended. A
// command past its point of no return (its ref renamed into place) first finishes what is
// left, inside a Critical section; a second signal exits at once, still removing the files.
// A broken pipe waits briefly for the signal that may lie behind it, and reports that one.
package interrupt

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// Signals are the signals a command stops on: those a terminal, a service manager or a
// closed pipe sends.
var Signals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE}

// ErrInterrupted reports that a signal came before a command reached its point of no return.
var ErrInterrupted = errors.New("interrupted")

// state is the process's registry of files to remove and its signal state.
type state struct {
	mu       sync.Mutex
	next     uint64
	paths    map[uint64]entry
	critical int
	signaled os.Signal
	// came is closed when the first signal comes, and then forgotten.
	came     chan struct{}
	cancel   context.CancelFunc
	graceful bool
	exit     func(int)
}

type entry struct {
	path string
	dir  bool
}

var st = &state{paths: map[uint64]entry{}, exit: os.Exit}

// Track registers a lock or temporary file to be removed if the process stops before it is
// done with it, and returns the function that forgets it: call that once the file is renamed
// into place or removed. A relative path is taken from the working folder of the moment.
func Track(path string) (untrack func()) { return st.track(path, false) }

// TrackDir registers a temporary folder, removed with everything below it.
func TrackDir(path string) (untrack func()) { return st.track(path, true) }

func (s *state) track(path string, dir bool) func() {
	if !filepath.IsAbs(path) {
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	id := s.next
	s.paths[id] = entry{path: path, dir: dir}
	return func() {
		s.mu.Lock()
		delete(s.paths, id)
		s.mu.Unlock()
	}
}

// Critical enters a section that a signal does not cut short: the work that must follow a
// step that cannot be undone, such as writing the reflog and the index after a ref moved.
// It fails with ErrInterrupted, entering nothing, when a signal has already come; call it
// just before the step, and done when the work that follows it is finished.
func Critical() (done func(), err error) {
	s := st
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.signaled != nil {
		return nil, ErrInterrupted
	}
	s.critical++
	var once sync.Once
	return func() { once.Do(s.leave) }, nil
}

func (s *state) leave() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.critical--
	if s.critical == 0 && s.signaled != nil && !s.graceful {
		s.stopLocked()
	}
}

// Interrupted reports whether a signal has come.
func Interrupted() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.signaled != nil
}

// Cleanup removes every registered file and folder; commands call it on their way out,
// whatever the outcome, so an error leaves nothing behind either.
func Cleanup() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.removeLocked()
}

func (s *state) removeLocked() {
	for id, e := range s.paths {
		if e.dir {
			removeDir(e.path)
		} else {
			os.Remove(e.path)
		}
		delete(s.paths, id)
	}
}

// removeDir removes a folder with everything below it. The command goes on while a signal is
// handled, and may be writing in the folder: a writer that makes the folders a file needs
// brings the folder back, so removeDir watches that it stays gone a moment, removing it again
// when it came back.
func removeDir(path string) {
	removeDirWith(path, os.RemoveAll)
}

// removeDirWith is removeDir with the function that removes a folder and what is below it.
func removeDirWith(path string, removeAll func(string) error) {
	gone := 0
	for range removeTries {
		removeAll(path)
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			if gone++; gone == removeSettled {
				return
			}
		} else {
			gone = 0
		}
		time.Sleep(removePause)
	}
}

// How often and how far apart removeDir looks, and for how many looks in a row it must find
// the folder gone.
const (
	removeTries   = 20
	removePause   = 2 * time.Millisecond
	removeSettled = 3
)

// ExitCode is the exit status for a process that sig stopped: 128 plus its number.
func ExitCode(sig os.Signal) int {
	if n, ok := sig.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 130
}

// Settle waits up to d for a signal on its way and returns it, or nil. A signal sent to the
// process group reaches git children too: one of them may die of it, and its failure reach
// the command, before the signal reaches this process. A command that fails calls Settle
// first, so that it reports the signal and not what the signal caused.
func Settle(d time.Duration) os.Signal {
	st.mu.Lock()
	came, sig := st.came, st.signaled
	st.mu.Unlock()
	if came == nil {
		return sig
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-came:
	case <-t.C:
	}
	if sig := Signaled(); sig != syscall.SIGPIPE {
		return sig
	}
	// A broken pipe may be the first sign of a signal to the group: give that signal the time
	// receive gives it.
	time.Sleep(pipeSettle)
	return Signaled()
}

// Signaled returns the signal that came, or nil.
func Signaled() os.Signal {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.signaled
}

// stopLocked removes the registered files and exits with the signal's status.
func (s *state) stopLocked() {
	s.removeLocked()
	s.exit(ExitCode(s.signaled))
}
