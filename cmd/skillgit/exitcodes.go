package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
)

// The exit codes, the same in `skillgit help exit-codes` and the README.
const (
	ExitOK       = 0 // success
	ExitError    = 1 // an error: bad input, a missing skill, an invalid skill, I/O
	ExitUsage    = 2 // the command was called wrongly
	ExitRefused  = 3 // refused by policy or by the audit
	ExitConflict = 4 // the change collides with what is published
	ExitUpdates  = 5 // sync --check: updates exist
)

const exitCodesHelp = `Exit codes:

  0  success
  1  error: bad input, a skill or ref that does not exist, an invalid skill, I/O
  2  usage: unknown command or flag, wrong number of arguments
  3  refused by policy or by the audit (e.g. audit risk at or above --fail-on)
  4  conflict: the change collides with what is published
  5  sync --check: the channel has skill versions the project's lock does not pin yet
130  stopped by SIGINT (Ctrl-C); 143 by SIGTERM, 129 by SIGHUP, 141 by SIGPIPE:
     128 plus the signal's number

A command stopped by a signal first removes its lock files and temporary files.
A ref update under way when the signal comes (the working tree, the reflog and
the ref) is finished first; a second signal stops it at once, still removing
them. 'skillgit mcp' and 'sync --watch' stop cleanly on the first signal and
exit 0. A lock file left by a skillgit process that was killed is removed by
the next skillgit that meets it; 'skillgit doctor' lists what is left.

With --json, an error is printed on stdout as
  {"error": {"message": "...", "exit_code": N}}
and nothing on stderr; so is a usage error such as an unknown flag, when --json is
among the arguments. A usage error adds "help", the command that shows the usage:
  {"error": {"message": "...", "exit_code": 2, "help": "skillgit approve --help"}}
Without --json, a usage error ends with: Run 'skillgit approve --help' for usage.`

// exitCodeError carries an explicit exit code, for results such as "some skills are invalid".
type exitCodeError struct {
	code int
	err  error
}

func (e exitCodeError) Error() string { return e.err.Error() }
func (e exitCodeError) Unwrap() error { return e.err }

// quietExit ends a command with an exit code when its output already says why, as an audit
// report says that it is blocked; nothing more is printed, so JSON output stays one document.
type quietExit struct{ code int }

func (e quietExit) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func exitCode(err error) int {
	var ec exitCodeError
	var ue usageError
	var qe quietExit
	switch {
	case errors.As(err, &qe):
		return qe.code
	case errors.As(err, &ec):
		return ec.code
	case errors.As(err, &ue), isUnknownCommand(err):
		return ExitUsage
	case errors.Is(err, lifecycle.ErrRefused):
		return ExitRefused
	case errors.Is(err, lifecycle.ErrConflict):
		return ExitConflict
	}
	return ExitError
}

// exitCodesTopic is a help topic: `skillgit help exit-codes`.
func exitCodesTopic() *cobra.Command {
	return &cobra.Command{Use: "exit-codes", Short: "The exit codes skillgit returns", Long: exitCodesHelp}
}
