package hooks

import (
	"fmt"

	"github.com/skillgit/skillgit/lifecycle/auditrun"
)

// ParsePreCommitArgs reads what `skillgit hook pre-commit` is given after its name: nothing
// (git's own hook: the skills the commit touches), --all-files (every staged skill), or
// --files followed by file names (the pre-commit framework's entry: the skills holding those
// files too). Every argument after --files is a file name, whatever it looks like.
func ParsePreCommitArgs(args []string) (auditrun.StagedScope, error) {
	var s auditrun.StagedScope
	for i, a := range args {
		switch a {
		case "--all-files":
			s.All = true
		case "--files":
			s.Files = append(s.Files, args[i+1:]...)
			return s, nil
		default:
			return s, fmt.Errorf("pre-commit: unexpected argument %q; it takes --all-files, or --files FILE...", clip(a, 60))
		}
	}
	return s, nil
}
