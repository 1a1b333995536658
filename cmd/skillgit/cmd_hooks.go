package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/hooks"
)

// hooksJSON is the --json output of `skillgit hooks`.
type hooksJSON struct {
	Dir        string     `json:"dir"`
	From       string     `json:"from"`
	ConfigFile string     `json:"config_file,omitempty"`
	Shared     bool       `json:"shared,omitempty"`
	Hooks      []hookJSON `json:"hooks"`
}

type hookJSON struct {
	Name    string `json:"name"`
	Path    string `json:"path"`
	State   string `json:"state"`
	Chained string `json:"chained,omitempty"`
	Change  string `json:"change,omitempty"`
}

func newHooksCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "hooks install|uninstall|status",
		Short: "Install, remove or show the git hooks that run the audit",
		Long: `Manage the git hooks that run skillgit's audit: pre-commit and pre-push in a
repository with a working tree, pre-receive in a bare repository.

The hooks go into the folder git runs hooks from: core.hooksPath when it is set
(it is never changed), else the hooks folder of the git directory, which linked
worktrees share. A hook that is already there and is not skillgit's is kept as
<name>.skillgit-chained and runs first, with the same arguments and input; if it
fails, so does the hook. uninstall puts it back as it was. Both are idempotent.

git does not clone hooks: in a repository without them, the first command that
changes it (propose, approve, publish, push, ...) says so once. uninstall, like
init --no-hooks, is a choice that nothing reminds of; install clears it.`,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Errorf("%s %s: unknown subcommand; use install, uninstall or status", c.CommandPath(), sanitize(args[0]))}
			}
			return usageError{fmt.Errorf("%s needs a subcommand: install, uninstall or status", c.CommandPath())}
		},
	}
	c.AddCommand(
		newHooksSubCmd(a, "install", "Install the hooks, keeping and chaining any hook already there", hooks.Install),
		newHooksSubCmd(a, "uninstall", "Remove the hooks and put back the hooks they chained", hooks.Uninstall),
		newHooksSubCmd(a, "status", "Show the hooks folder and the state of each hook", hooks.Status),
	)
	return c
}

// hooksOptions are what a hooks subcommand does: its name and the hooks function it runs.
type hooksOptions struct {
	app  *app
	name string
	fn   func(hooks.Options) (*hooks.Report, error)
}

func newHooksSubCmd(a *app, name, short string, fn func(hooks.Options) (*hooks.Report, error)) *cobra.Command {
	o := &hooksOptions{app: a, name: name, fn: fn}
	c := &cobra.Command{
		Use:   name,
		Short: short,
		Args:  exactArgs(0),
		RunE:  func(c *cobra.Command, args []string) error { return runHooks(o) },
	}
	a.addJSON(c)
	return c
}

func runHooks(o *hooksOptions) error {
	a, name, fn := o.app, o.name, o.fn
	rep, err := fn(hooks.Options{Dir: a.repo, Getenv: getenv})
	if rep != nil {
		for _, w := range rep.Warnings {
			a.warn("%s", w)
		}
	}
	if err != nil {
		return err
	}
	return a.printResult(toHooksJSON(rep), func(w io.Writer) error { return printHooks(w, name, rep) })
}

func toHooksJSON(rep *hooks.Report) hooksJSON {
	out := hooksJSON{Dir: rep.Dir, From: string(rep.From), ConfigFile: rep.ConfigFile, Shared: rep.Shared, Hooks: []hookJSON{}}
	for _, h := range rep.Hooks {
		out.Hooks = append(out.Hooks, hookJSON{Name: h.Name, Path: h.Path, State: string(h.State), Chained: h.Chained, Change: string(h.Change)})
	}
	return out
}

func printHooks(w io.Writer, cmd string, rep *hooks.Report) error {
	fmt.Fprintf(w, "Hooks folder: %s (%s)\n", rep.Dir, folderSource(rep.Folder))
	for _, h := range rep.Hooks {
		text := hookState(h)
		if cmd != "status" {
			text = hookChange(h)
		}
		fmt.Fprintf(w, "  %-12s %s\n", h.Name, text)
	}
	return nil
}

// folderSource says where the hooks folder comes from.
func folderSource(f hooks.Folder) string {
	if f.From == hooks.FromHooksPath {
		return fmt.Sprintf("core.hooksPath, set in %s; skillgit does not change it", f.ConfigFile)
	}
	return "git's default"
}

func hookState(h hooks.Hook) string {
	switch h.State {
	case hooks.StateInstalled:
		return "installed"
	case hooks.StateChained:
		return fmt.Sprintf("installed; runs the earlier hook %s first", filepath.Base(h.Chained))
	case hooks.StateForeign:
		if h.Chained != "" {
			return fmt.Sprintf("not skillgit's hook, and %s is still there; see `skillgit hooks install`", filepath.Base(h.Chained))
		}
		return "not skillgit's hook; `skillgit hooks install` keeps it and runs it first"
	}
	return "absent"
}

func hookChange(h hooks.Hook) string {
	switch h.Change {
	case hooks.ChangeInstalled:
		return "installed"
	case hooks.ChangeChained:
		return fmt.Sprintf("installed; the hook that was there runs first, kept as %s", filepath.Base(h.Chained))
	case hooks.ChangeUpdated:
		return "updated"
	case hooks.ChangeRemoved:
		return "removed"
	case hooks.ChangeRestored:
		return "removed; the hook it chained is back"
	}
	switch h.State {
	case hooks.StateInstalled, hooks.StateChained:
		return "already installed"
	case hooks.StateForeign:
		return "not skillgit's hook; left alone"
	}
	return "not installed"
}
