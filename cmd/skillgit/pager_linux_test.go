package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal and returns its controlling side and its terminal.
func openPTY(t *testing.T) (ctl, tty *os.File) {
	t.Helper()
	ctl, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Fatalf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ctl.Close() })
	if err := unix.IoctlSetPointerInt(int(ctl.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlock pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ctl.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("pseudo-terminal number: %v", err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return ctl, tty
}

// TestPagerOnTerminal runs log and review with stdout on a terminal: the output goes through
// SKILLGIT_PAGER, except under --no-pager and --json.
func TestPagerOnTerminal(t *testing.T) {
	ctl, tty := openPTY(t)
	go io.Copy(io.Discard, ctl) // what is not paged reaches the terminal; nobody reads it
	dir := t.TempDir()
	gitconfig := filepath.Join(dir, "gitconfig")
	if err := os.WriteFile(gitconfig, []byte("[user]\n\tname = Ada\n\temail = ada@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", dir)
	t.Setenv("GIT_CONFIG_GLOBAL", gitconfig)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	repo := filepath.Join(dir, "repo")
	var out bytes.Buffer
	if code := Main([]string{"init", repo, "--no-hooks"}, Stdio{Out: &out, Err: &out}); code != 0 {
		t.Fatalf("init: exit %d: %s", code, out.String())
	}
	draft := filepath.Join(dir, "drafts", "tables")
	if err := os.MkdirAll(draft, 0o755); err != nil {
		t.Fatal(err)
	}
	skill := "---\nname: tables\ndescription: Formats tables. Use when asked to format a table.\n---\n\nAlign the columns.\n"
	if err := os.WriteFile(filepath.Join(draft, "SKILL.md"), []byte(skill), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := Main([]string{"-C", repo, "propose", draft, "-m", "Tables.", "--json"}, Stdio{Out: &out, Err: &bytes.Buffer{}}); code != 0 {
		t.Fatalf("propose: exit %d: %s", code, out.String())
	}
	var proposed struct{ ID string }
	if err := json.Unmarshal(out.Bytes(), &proposed); err != nil {
		t.Fatal(err)
	}
	paged := filepath.Join(dir, "paged")
	t.Setenv("SKILLGIT_PAGER", "cat >>"+paged)
	tests := []struct {
		args  []string
		paged string
	}{
		{[]string{"log"}, "COMMIT "},
		{[]string{"log", "--no-pager"}, ""},
		{[]string{"log", "--json"}, ""},
		{[]string{"review", proposed.ID}, "candidate:  " + proposed.ID},
		{[]string{"review", proposed.ID, "--stat"}, "candidate:  " + proposed.ID},
		{[]string{"review", proposed.ID, "--format", "markdown"}, "**PASS**"},
		{[]string{"review", proposed.ID, "--no-pager"}, ""},
		{[]string{"review", proposed.ID, "--format", "sarif"}, ""},
		{[]string{"review", proposed.ID, "--json"}, ""},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			os.Remove(paged)
			var errOut bytes.Buffer
			if code := Main(append([]string{"-C", repo}, tc.args...), Stdio{Out: tty, Err: &errOut}); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut.String())
			}
			got, err := os.ReadFile(paged)
			if tc.paged != "" && (err != nil || !strings.HasPrefix(string(got), tc.paged)) {
				t.Errorf("the pager got %q, %v; want output that starts with %q", got, err, tc.paged)
			}
			if tc.paged == "" && err == nil {
				t.Errorf("the pager ran and got %q", got)
			}
		})
	}
}
