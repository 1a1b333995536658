package interrupt

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Notify starts handling Signals for the rest of the process and returns the command's
// context. Outside a Critical section, and unless the command runs Gracefully, the first
// signal removes the registered files and exits at once. Inside one, or gracefully, it
// cancels the context, so that the work can stop at its next safe point, and the process
// exits when the last section ends (gracefully: when the command returns). A second signal
// always removes the files and exits at once. stop ends the handling.
func Notify(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 2)
	st.mu.Lock()
	st.cancel, st.signaled, st.graceful, st.came = cancel, nil, false, make(chan struct{})
	st.mu.Unlock()
	signal.Notify(ch, Signals...)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case sig := <-ch:
				st.receive(sig)
			case <-done:
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel()
	}
}

// Gracefully says that the running command stops on its own once its context is cancelled,
// as a server or a watcher does: the first signal then only cancels the context.
func Gracefully() {
	st.mu.Lock()
	st.graceful = true
	st.mu.Unlock()
}

// IsGraceful reports whether the running command said it stops on its own.
func IsGraceful() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.graceful
}

// pipeSettle is how long a broken pipe waits for the signal that may have caused it: a signal
// sent to the process group can stop a git child first, and the next write to that child then
// raises SIGPIPE here before the signal itself arrives.
const pipeSettle = 50 * time.Millisecond

// receive handles one signal. A SIGPIPE gives way to any other signal: one that follows it is
// the one reported, and is handled as the first, so that the stop of a git child does not
// count as a second signal that cuts a critical section short.
func (s *state) receive(sig os.Signal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.signaled == syscall.SIGPIPE && sig != syscall.SIGPIPE:
		s.signaled = sig
	case s.signaled != nil && sig == syscall.SIGPIPE:
		return // another write to a pipe already broken
	case s.signaled != nil:
		s.stopLocked() // a second signal: at once
		return
	default:
		s.signaled = sig
		if s.came != nil {
			close(s.came)
			s.came = nil
		}
	}
	if s.critical == 0 && !s.graceful {
		if sig == syscall.SIGPIPE {
			time.AfterFunc(pipeSettle, s.stopAfterPipe)
			return
		}
		// Stop at once, without cancelling first: a cancelled context would have the
		// transport kill the git processes serving a push, which then cannot remove
		// their own lock files on the remote.
		s.stopLocked()
		return
	}
	if s.cancel != nil {
		s.cancel()
	}
}

// stopAfterPipe stops a command that a broken pipe alone interrupted, once no other signal
// came to take its place.
func (s *state) stopAfterPipe() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.signaled == syscall.SIGPIPE && s.critical == 0 && !s.graceful {
		s.stopLocked()
	}
}
