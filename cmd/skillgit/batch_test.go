package main

import "testing"

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
