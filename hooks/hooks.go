// Package hooks installs the git hooks that run skillgit's audit on `git commit` and
// `git push`, and is what those hooks run.
//
// A hook is a small shell script (a shim) that runs `skillgit hook <name>`. It goes into
// the folder git really runs hooks from: core.hooksPath when it is set, which this package
// reports and never changes, else the hooks folder of the common git directory, which linked
// worktrees share. A hook that was there before is kept beside the shim as
// <name>.skillgit-chained and runs first; uninstalling puts it back.
package hooks

import (
	"os"
	"slices"

	"github.com/skillgit/skillgit/gitstore"
)

// Names of the git hooks skillgit runs as.
const (
	PreCommit  = "pre-commit"
	PrePush    = "pre-push"
	PreReceive = "pre-receive"
)

// known lists every hook name skillgit may have installed.
var known = []string{PreCommit, PrePush, PreReceive}

// ChainedSuffix ends the name of a hook kept aside to run before the shim.
const ChainedSuffix = ".skillgit-chained"

// Options says which repository to work on and what its shims run.
type Options struct {
	// Dir is any folder of the repository, or its git directory.
	Dir string
	// Executable is the skillgit program the shims run; empty means this program.
	Executable string
	// Getenv reads the environment (HOME and git's config variables); nil means os.Getenv.
	Getenv func(string) string
}

func (o Options) getenv() func(string) string {
	if o.Getenv == nil {
		return os.Getenv
	}
	return o.Getenv
}

// namesFor lists the hooks skillgit installs in r: the client-side ones in a repository
// with a working tree, the server-side one in a bare repository.
func namesFor(r *gitstore.Repo) []string {
	if r.Bare() {
		return []string{PreReceive}
	}
	return []string{PreCommit, PrePush}
}

// Known reports whether name is a hook skillgit runs as.
func Known(name string) bool { return slices.Contains(known, name) }
