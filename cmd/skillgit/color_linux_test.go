package main

import (
	"os"
	"testing"
)

// TestColorOnlyOnTerminal checks that colors and network progress go to a terminal and not to
// /dev/null, which is a character device too.
func TestColorOnlyOnTerminal(t *testing.T) {
	_, tty := openPTY(t)
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "xterm")
	if !colorful(tty) {
		t.Error("colorful(terminal) = false, want true")
	}
	if colorful(null) {
		t.Errorf("colorful(%s) = true, want false", os.DevNull)
	}
	if w := (&app{Stdio: Stdio{Err: tty}}).progressTo(false); w == nil {
		t.Error("progress on a terminal goes nowhere, want the terminal")
	}
	if w := (&app{Stdio: Stdio{Err: null}}).progressTo(false); w != nil {
		t.Errorf("progress goes to %s, want nowhere", os.DevNull)
	}
}
