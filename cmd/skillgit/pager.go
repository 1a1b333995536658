package main

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"

	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// pagerEnv says what the pager decision depends on besides the environment.
type pagerEnv struct {
	// tty is whether stdout is a terminal.
	tty bool
	// machine is whether the output is for programs (--json, SARIF).
	machine bool
	// off is --no-pager.
	off bool
}

// pagerCommand returns the shell command that pages output, or "" for none: SKILLGIT_PAGER,
// else PAGER, else less, as git and gh choose theirs. Output for programs, output that is
// not a terminal, --no-pager and a pager set empty or to cat are never paged.
func pagerCommand(e pagerEnv, lookup func(string) (string, bool)) string {
	if e.off || e.machine || !e.tty {
		return ""
	}
	cmd, ok := lookup("SKILLGIT_PAGER")
	if !ok {
		cmd, ok = lookup("PAGER")
	}
	if !ok {
		cmd = "less"
	}
	if cmd = strings.TrimSpace(cmd); cmd == "cat" {
		return ""
	}
	return cmd
}

// pagerEnviron is env with LESS=FRX added when LESS is unset, so that less quits at once
// when the output fits the screen, shows colors and leaves the screen as it was.
func pagerEnviron(env []string) []string {
	for _, kv := range env {
		if strings.HasPrefix(kv, "LESS=") {
			return env
		}
	}
	return append(env, "LESS=FRX")
}

// pager is a running pager process; what is written to it is what it shows.
type pager struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	mu  sync.Mutex
	// gone is set once the pager stopped reading, as when its user quit it.
	gone bool
}

// startPager runs shell command cmdline with its stdout on out and its stderr on errOut.
func startPager(cmdline string, out, errOut io.Writer) (*pager, error) {
	cmd := exec.Command("sh", "-c", cmdline)
	cmd.Stdout, cmd.Stderr = out, errOut
	cmd.Env = pagerEnviron(os.Environ())
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &pager{cmd: cmd, in: in}, nil
}

// Write passes p to the pager. Once the pager has quit, the rest of the output is dropped
// without an error: a user who quits the pager has seen what they wanted.
func (p *pager) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.gone {
		return len(b), nil
	}
	if _, err := p.in.Write(b); err != nil {
		if !errors.Is(err, syscall.EPIPE) && !errors.Is(err, os.ErrClosed) {
			return 0, err
		}
		p.gone = true
	}
	return len(b), nil
}

// Close ends the pager's input and waits for the user to quit it.
func (p *pager) Close() error {
	err := p.in.Close()
	_ = p.cmd.Wait() // how the pager exits is its own affair, as in git
	if errors.Is(err, syscall.EPIPE) {
		return nil
	}
	return err
}

// addNoPager declares --no-pager on a command whose output may be paged.
func addNoPager(c *cobra.Command, off *bool) {
	c.Flags().BoolVar(off, "no-pager", false, "print on stdout even on a terminal, without SKILLGIT_PAGER, PAGER or less")
}

// page sends stdout through the pager when it should be, and returns the function that
// closes the pager and restores stdout. A pager that cannot start is a warning: the output
// goes to stdout as it would without one.
func (a *app) page(machine, off bool) (done func()) {
	cmdline := pagerCommand(pagerEnv{tty: isTerminal(a.Out), machine: machine || a.json, off: off}, os.LookupEnv)
	if cmdline == "" {
		return func() {}
	}
	p, err := startPager(cmdline, a.Out, a.Err)
	if err != nil {
		a.warn("pager %q: %v; printing without it", cmdline, err)
		return func() {}
	}
	out := a.Out
	a.Out = p
	return func() {
		if err := p.Close(); err != nil {
			a.warn("pager %q: %v", cmdline, err)
		}
		a.Out = out
	}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
