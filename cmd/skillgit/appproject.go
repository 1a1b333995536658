package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/agentsync"
)

// appProjectError is the error of a command that needs a skill repository, run in an
// application project. It says what the folder is and where the command runs, instead of
// suggesting `skillgit init`, which would make the project a skill repository.
type appProjectError struct {
	p *agentsync.Project
	// repoArg is the skill repository's folder as -C takes it from where skillgit started;
	// empty when the sync file names it by URL or cannot be read.
	repoArg string
	// command is the command run without the program's name, such as "candidates"; set by
	// nameCommand once it is known.
	command string
	err     error
}

func (e *appProjectError) Unwrap() error { return e.err }

func (e *appProjectError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: an application project, not a skill repository: ", sanitize(e.p.Dir))
	if e.p.Err != nil {
		fmt.Fprintf(&b, "its %s cannot be read (%s)", agentsync.SyncFileName, sanitize(e.p.Err.Error()))
	} else {
		fmt.Fprintf(&b, "its skills come from %s, named in %s, and `skillgit sync` installs them", sanitize(e.p.Repository), agentsync.SyncFileName)
	}
	b.WriteString("; `skillgit sync --status` shows what is installed here and `skillgit read NAME` prints an installed skill")
	cmd := e.command
	if cmd == "" {
		cmd = "COMMAND"
	}
	switch {
	case e.repoArg != "":
		fmt.Fprintf(&b, "; run `skillgit %s` in the skill repository: `skillgit -C %s %s`", cmd, sanitize(e.repoArg), cmd)
	case e.p.Repository != "":
		fmt.Fprintf(&b, "; run `skillgit %s` in a clone of the skill repository (`git clone %s`)", cmd, sanitize(e.p.Repository))
	}
	return b.String()
}

// nameCommand tells an appProjectError in err which command c failed with it.
func nameCommand(c *cobra.Command, err error) {
	if e, ok := errors.AsType[*appProjectError](err); ok && c != nil {
		e.command = strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" ")
	}
}

// openRepo opens the skill repository skillgit runs in. Where there is none and the folder is
// in an application project, the error is an appProjectError.
func (a *app) openRepo() (*lifecycle.Repo, error) {
	r, err := lifecycle.Open(a.repo)
	if !noSkillRepository(err) {
		return r, err
	}
	p := agentsync.FindProject(a.repo)
	if p == nil {
		return nil, err
	}
	return nil, &appProjectError{p: p, repoArg: repositoryArg(p), err: err}
}

// repositoryArg is the folder of the skill repository p names by path, relative to the
// folder skillgit started in when it can be.
func repositoryArg(p *agentsync.Project) string {
	dir := p.RepositoryDir()
	if dir == "" {
		return ""
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, dir); err == nil {
			return rel
		}
	}
	return dir
}
