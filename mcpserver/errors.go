package mcpserver

import (
	"errors"
	"fmt"
	"strings"

	"github.com/skillgit/skillgit/lifecycle"
)

// toolError adds to a lifecycle error what an agent on this server can do about it. The
// lifecycle's own message already names the thing and what a person would run.
func toolError(err error) error {
	switch {
	case errors.Is(err, lifecycle.ErrConflict):
		return fmt.Errorf("%w; send a new version built on the published one (read_skill shows it) with patch_candidate, or ask a person to run `skillgit rebase`", err)
	case errors.Is(err, lifecycle.ErrNotFound):
		return fmt.Errorf("%w; list_skills and list_candidates (state \"all\") show what exists", err)
	}
	return err
}

// relabeled is an error whose message names a temporary folder the way the agent knows it.
type relabeled struct {
	msg string
	err error
}

func (e *relabeled) Error() string { return e.msg }
func (e *relabeled) Unwrap() error { return e.err }

// relabel replaces every old in err's message with new, keeping err for errors.Is.
func relabel(err error, old, new string) error {
	if err == nil || old == "" || !strings.Contains(err.Error(), old) {
		return err
	}
	return &relabeled{msg: strings.ReplaceAll(err.Error(), old, new), err: err}
}

// inputError reports a tool argument that the schema lets through but the tool cannot take.
func inputError(field, format string, args ...any) error {
	return fmt.Errorf("argument %s: %s", field, fmt.Sprintf(format, args...))
}
