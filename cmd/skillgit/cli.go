package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/internal/interrupt"
)

// Stdio is where a command reads and writes.
type Stdio struct {
	In       io.Reader
	Out, Err io.Writer
}

// app carries what every command shares: the streams and the global flags.
type app struct {
	Stdio
	repo    string
	json    bool
	version string
	// ctx is cancelled by the first SIGINT, SIGTERM, SIGHUP or SIGPIPE.
	ctx context.Context
}

// version, when set at build time with -ldflags "-X main.version=...", replaces the
// version read from the build information.
var version string

// settleAfterError is how long a failed command waits for a signal sent with whatever made it
// fail, such as a Ctrl-C that stopped a git child first.
const settleAfterError = 50 * time.Millisecond

// Main runs skillgit with args and returns the process exit code.
func Main(args []string, stdio Stdio) int {
	a := &app{Stdio: stdio, version: appVersion()}
	root := newRootCmd(a)
	root.SetArgs(args)
	root.SetIn(stdio.In)
	root.SetOut(stdio.Out)
	root.SetErr(stdio.Err)
	ctx, stop := interrupt.Notify(context.Background())
	defer stop()
	defer interrupt.Cleanup()
	a.ctx = ctx
	c, err := root.ExecuteContextC(ctx)
	if err == nil {
		a.remindOfHooks(c)
	}
	if err != nil && exitCode(err) == ExitError {
		// The error may be a git child's that the same signal stopped first.
		interrupt.Settle(settleAfterError)
	}
	if err != nil && !a.json && exitCode(err) == ExitUsage {
		a.json = wantsJSON(args)
	}
	// A command that stops on its own (mcp, sync --watch) and did so cleanly exits 0.
	if sig := interrupt.Signaled(); sig != nil && (err != nil || !interrupt.IsGraceful()) {
		fmt.Fprintf(a.Err, "skillgit: stopped by %v\n", sig)
		return interrupt.ExitCode(sig)
	}
	return a.report(c, err)
}

func newRootCmd(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:   "skillgit",
		Short: "Keep Agent Skills in git: review, publish, roll back and sync them",
		Long: `skillgit keeps Agent Skills (folders with a SKILL.md) in a git repository.
A proposed change is a branch, an approval is a commit on it, a publish is a merge
commit and the audit trail is the commit log. A security audit guards every step.`,
		Version:       a.version,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.PersistentFlags().StringVarP(&a.repo, "repo", "C", ".", "run as if started in `DIR`")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(
		newInitCmd(a), newNewCmd(a), newListCmd(a), newShowCmd(a),
		newValidateCmd(a), newReadCmd(a), newPromptCmd(a), newMatchCmd(a), newAuditCmd(a),
		newProposeCmd(a), newCandidatesCmd(a), newReviewCmd(a), newReviseCmd(a),
		newApproveCmd(a), newRejectCmd(a), newMergeCandidateCmd(a), newPublishCmd(a), newRollbackCmd(a),
		newRebaseCmd(a), newLogCmd(a), newModeCmd(a), newHooksCmd(a), newHookCmd(a),
		newSyncCmd(a), newPackCmd(a), newPushCmd(a), newFetchCmd(a), newMCPCmd(a), newDoctorCmd(a),
		newVersionCmd(a), exitCodesTopic(),
	)
	applyGroups(root)
	applyExamples(root)
	a.registerCompletions(root)
	return root
}

// addJSON declares --json on a command that prints data.
func (a *app) addJSON(c *cobra.Command) {
	c.Flags().BoolVar(&a.json, "json", false, "print machine-readable JSON on stdout")
}

// report prints err of command c once, in text or JSON, and returns its exit code. A usage
// error names the help of c.
func (a *app) report(c *cobra.Command, err error) int {
	if err == nil {
		return ExitOK
	}
	code := exitCode(err)
	nameCommand(c, err)
	if errors.As(err, new(quietExit)) {
		return code
	}
	help := ""
	if code == ExitUsage {
		help = helpCommand(c)
	}
	if a.json {
		writeJSON(a.Out, jsonError{Error: jsonErrorBody{Message: err.Error(), ExitCode: code, Help: help}})
		return code
	}
	fmt.Fprintf(a.Err, "skillgit: %s\n", err)
	if help != "" {
		fmt.Fprintf(a.Err, "Run '%s' for usage.\n", help)
	}
	return code
}

// warn prints a warning line on stderr.
func (a *app) warn(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if !strings.HasPrefix(msg, "warning:") {
		msg = "warning: " + msg
	}
	fmt.Fprintln(a.Err, msg)
}

type jsonError struct {
	Error jsonErrorBody `json:"error"`
}

type jsonErrorBody struct {
	Message  string `json:"message"`
	ExitCode int    `json:"exit_code"`
	// Help is the command that shows how to call the failed command, for usage errors only.
	Help string `json:"help,omitempty"`
}

// helpCommand is what to run for the usage of c, such as "skillgit approve --help".
func helpCommand(c *cobra.Command) string {
	if c == nil {
		return "skillgit --help"
	}
	return c.CommandPath() + " --help"
}

// usageError marks a mistake in how the command was called.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// exactArgs and friends make argument-count mistakes usage errors.
func exactArgs(n int) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if len(args) != n {
			return usageError{fmt.Errorf("%s takes %d argument(s), got %d", c.CommandPath(), n, len(args))}
		}
		return nil
	}
}

func rangeArgs(lo, hi int) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if len(args) < lo || len(args) > hi {
			return usageError{fmt.Errorf("%s takes %d to %d arguments, got %d", c.CommandPath(), lo, hi, len(args))}
		}
		return nil
	}
}

func minArgs(n int) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if len(args) < n {
			return usageError{fmt.Errorf("%s needs at least %d argument(s)", c.CommandPath(), n)}
		}
		return nil
	}
}

// isUnknownCommand reports cobra's error for a command that does not exist.
func isUnknownCommand(err error) bool {
	return strings.HasPrefix(err.Error(), "unknown command") || strings.HasPrefix(err.Error(), "unknown flag") ||
		strings.HasPrefix(err.Error(), "unknown shorthand flag")
}

// getenv is os.Getenv; a variable so that nothing else reads the environment directly.
var getenv = os.Getenv
