package mcpserver

import (
	"errors"
	"fmt"

	"github.com/skillgit/skillgit/lifecycle"
)

// toolError adds to a lifecycle error what an agent on this server can do about it. The
// lifecycle's own message already names the thing and what a person would run.
func toolError(err error) error {
	switch {
	case errors.Is(err, lifecycle.ErrConflict):
		return fmt.Errorf("%w; send a new version built on the published one (read_skill shows it) with patch_candidate, or ask a person to run `skillgit rebase`", err)
	case errors.Is(err, lifecycle.ErrAlreadyProposed):
		return fmt.Errorf("%w; to change that candidate, send its new version with patch_candidate", err)
	case errors.Is(err, lifecycle.ErrNotFound):
		return fmt.Errorf("%w; list_skills and list_candidates (state \"all\") show what exists", err)
	}
	return err
}

// inputError reports a tool argument that the schema lets through but the tool cannot take.
func inputError(field, format string, args ...any) error {
	return fmt.Errorf("argument %s: %s", field, fmt.Sprintf(format, args...))
}
