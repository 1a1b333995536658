package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestPagerCommand(t *testing.T) {
	tty := pagerEnv{tty: true}
	tests := []struct {
		name string
		e    pagerEnv
		env  map[string]string
		want string
	}{
		{"default is less", tty, nil, "less"},
		{"PAGER", tty, map[string]string{"PAGER": "most -s"}, "most -s"},
		{"SKILLGIT_PAGER first", tty, map[string]string{"SKILLGIT_PAGER": "bat", "PAGER": "most"}, "bat"},
		{"SKILLGIT_PAGER empty turns it off", tty, map[string]string{"SKILLGIT_PAGER": "", "PAGER": "most"}, ""},
		{"PAGER empty turns it off", tty, map[string]string{"PAGER": " "}, ""},
		{"cat is no pager", tty, map[string]string{"PAGER": "cat"}, ""},
		{"not a terminal", pagerEnv{}, map[string]string{"PAGER": "most"}, ""},
		{"JSON", pagerEnv{tty: true, machine: true}, nil, ""},
		{"--no-pager", pagerEnv{tty: true, off: true}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lookup := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
			if got := pagerCommand(tc.e, lookup); got != tc.want {
				t.Errorf("pagerCommand(%+v, %v) = %q, want %q", tc.e, tc.env, got, tc.want)
			}
		})
	}
}

func TestPagerEnviron(t *testing.T) {
	if got := pagerEnviron([]string{"A=1"}); !slices.Contains(got, "LESS=FRX") {
		t.Errorf("pagerEnviron without LESS = %q, want LESS=FRX added", got)
	}
	if got := pagerEnviron([]string{"LESS=i"}); slices.Contains(got, "LESS=FRX") {
		t.Errorf("pagerEnviron with LESS = %q, want it kept", got)
	}
}

// TestPagerProcess runs a real pager: what is written reaches its stdout through a pipe, and
// it sees LESS=FRX.
func TestPagerProcess(t *testing.T) {
	t.Setenv("LESS", "")
	os.Unsetenv("LESS")
	var out bytes.Buffer
	p, err := startPager(`echo "pager LESS=$LESS"; cat`, &out, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Write([]byte("review text\n")); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if want := "pager LESS=FRX\nreview text\n"; out.String() != want {
		t.Errorf("pager output = %q, want %q", out.String(), want)
	}
}

// TestPagerQuitEarly checks that a pager that exits before reading everything, as when its
// user quits, fails neither the writes nor the close.
func TestPagerQuitEarly(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "marker")
	p, err := startPager("head -c 10 >/dev/null; echo quit > "+marker, &bytes.Buffer{}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	line := []byte(strings.Repeat("x", 1023) + "\n")
	for range 4096 {
		if _, err := p.Write(line); err != nil {
			t.Fatalf("write after the pager quit: %v", err)
		}
	}
	if err := p.Close(); err != nil {
		t.Fatalf("close after the pager quit: %v", err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("the pager did not run: %v", err)
	}
}

// TestPageOffPipe checks that stdout that is not a terminal is left alone.
func TestPageOffPipe(t *testing.T) {
	t.Setenv("SKILLGIT_PAGER", "false")
	var out bytes.Buffer
	a := &app{Stdio: Stdio{Out: &out, Err: &out}}
	done := a.page(false, false)
	if a.Out != &out {
		t.Errorf("page replaced stdout that is not a terminal")
	}
	done()
}
