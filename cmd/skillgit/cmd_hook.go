package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/hooks"
)

// hookOptions are the hook's name and the arguments git passes it.
type hookOptions struct {
	app  *app
	name string
	rest []string
}

func newHookCmd(a *app) *cobra.Command {
	o := &hookOptions{app: a}
	c := &cobra.Command{
		Use:   "hook pre-commit|pre-push|pre-receive [--all-files | --files FILE... | GIT-ARGS...]",
		Short: "Run as a git hook (what the installed hooks call)",
		Long: `Run as the git hook of that name; the hooks that 'skillgit hooks install' writes
call this with git's arguments and input.

pre-commit audits the staged version of every skill the commit touches and
validates its SKILL.md (strictly for a new skill). With --all-files it audits and
validates every skill the index holds, touched or not: a check for CI. With
--files FILE... (what the pre-commit framework's skillgit-audit hook passes, every
tracked file under 'pre-commit run --all-files') it also audits each skill folder
that holds one of the files; every argument after --files is a file name, relative
to the folder the hook runs in. pre-push and pre-receive read
the ref updates on standard input and audit the skills each pushed range changes.
The policy (audit.fail_on, audit.skip_security_audit) is read from the commit the
change builds on, never from the change. Outside a skillgit repository the hook
does nothing.

Nothing is printed on stdout. When the hook refuses, stderr names each finding at
or above fail_on and each invalid SKILL.md, and says how to see the details.

Exit status 0 to let git go on, 3 when the audit or validation refuses, 1 on
error (git stops on any status but 0).`,
		Hidden: true,
		Args:   minArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.name, o.rest = args[0], args[1:]
			return runHook(o)
		},
	}
	c.Flags().SetInterspersed(false)
	return c
}

func runHook(ho *hookOptions) error {
	a, name, rest := ho.app, ho.name, ho.rest
	if !hooks.Known(name) {
		return usageError{fmt.Errorf("hook %q: unknown; skillgit runs as pre-commit, pre-push or pre-receive", sanitize(name))}
	}
	o := hooks.RunOptions{Dir: a.repo, Stdin: a.In, Stderr: a.Err, Getenv: getenv, Terminal: isTerminal(a.Err)}
	if name == hooks.PreCommit {
		var err error
		if o.Scope, err = hooks.ParsePreCommitArgs(rest); err != nil {
			return usageError{err}
		}
	}
	code, err := hooks.Run(name, o)
	if err != nil {
		return err
	}
	if code != 0 {
		return quietExit{code: code}
	}
	return nil
}
