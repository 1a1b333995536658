package main

import (
	"testing"
	"time"
)

// TestWorseExit checks the order in which a batch's outcomes make its exit code: an error
// over a refusal over a conflict over success, whatever order they come in.
func TestWorseExit(t *testing.T) {
	order := []int{ExitOK, ExitConflict, ExitRefused, ExitError}
	for i, a := range order {
		for j, b := range order {
			want := order[max(i, j)]
			if got := worseExit(a, b); got != want {
				t.Errorf("worseExit(%d, %d) = %d; want %d", a, b, got, want)
			}
		}
	}
}

// TestDelayFrom checks SKILLGIT_PROGRESS_DELAY: seconds as git's GIT_PROGRESS_DELAY, and the
// default for anything else.
func TestDelayFrom(t *testing.T) {
	tests := map[string]time.Duration{
		"": progressDelay, "0": 0, " 2 ": 2 * time.Second, "0.25": 250 * time.Millisecond,
		"-1": progressDelay, "NaN": progressDelay, "Inf": progressDelay, "1e300": progressDelay, "1s": progressDelay,
	}
	for v, want := range tests {
		if got := delayFrom(v); got != want {
			t.Errorf("delayFrom(%q) = %v, want %v", v, got, want)
		}
	}
}
