package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/hooks"
	"github.com/skillgit/skillgit/lifecycle/initrepo"
	"github.com/skillgit/skillgit/skills"
)

type initOptions struct {
	app                    *app
	args                   []string
	bare, builtin, noHooks bool
	branch                 string
}

// initJSON is the --json output of init: the result and, unless --no-hooks, the hooks.
type initJSON struct {
	*initrepo.Result
	Hooks *hooksJSON `json:"hooks,omitempty"`
}

func newInitCmd(a *app) *cobra.Command {
	o := &initOptions{app: a}
	c := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Create a skill repository, or adopt an existing git repository",
		Long: `Create a skill repository in DIR (default: the current folder), or adopt the git
repository there with one commit that adds .skillgit.yaml and the skills folder.
With --builtin, also publish the built-in skills (how agents use skillgit, how to
write a skill). The git hooks that run the audit on commit and push are installed
(pre-receive in a bare repository) unless --no-hooks; see 'skillgit hooks'.

With --bare, the repository is a server's: it is left empty, with HEAD naming the
publish branch, and the first push of a skill repository fills it ('skillgit push'
or 'git push' from a repository made with 'skillgit init', or from a clone of the
empty repository after 'skillgit init' in the clone). With --bare --builtin it
starts with the built-in skills instead: clone it to work in it, since a
repository made with its own 'skillgit init' has a history unrelated to it.`,
		Args: rangeArgs(0, 1),
		RunE: func(c *cobra.Command, args []string) error {
			o.args = args
			return runInit(o)
		},
	}
	c.Flags().BoolVar(&o.bare, "bare", false, "create a bare repository (no working tree)")
	c.Flags().BoolVar(&o.builtin, "builtin", false, "publish the built-in skill pack")
	c.Flags().BoolVar(&o.noHooks, "no-hooks", false, "do not install the git hooks")
	c.Flags().StringVar(&o.branch, "branch", "", "publish branch (default main, or the checked-out branch of an adopted repository)")
	a.addJSON(c)
	return c
}

func runInit(o *initOptions) error {
	a, args := o.app, o.args
	dir := a.repo
	if len(args) == 1 {
		dir = args[0]
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(a.repo, dir)
		}
	}
	opts := initrepo.Options{Dir: dir, Bare: o.bare, Branch: o.branch}
	if o.builtin {
		opts.Pack, opts.PackName, opts.PackVersion = skills.FS(), "builtin", skills.Version
	}
	res, err := initrepo.Init(opts)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		a.warn("%s", w)
	}
	out := initJSON{Result: res}
	if !o.noHooks {
		rep, err := installHooks(a, res.Dir)
		if err != nil {
			return err
		}
		j := toHooksJSON(rep)
		out.Hooks = &j
	} else {
		declineHooks(a, res.Dir)
	}
	return a.printResult(out, func(w io.Writer) error { return printInit(w, out) })
}

// installHooks installs the hooks of a repository init has just made or adopted.
func installHooks(a *app, dir string) (*hooks.Report, error) {
	rep, err := hooks.Install(hooks.Options{Dir: dir, Getenv: getenv})
	if rep != nil {
		for _, w := range rep.Warnings {
			a.warn("%s", w)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: the skill repository is ready, but its git hooks are not installed: %w; "+
			"then run `skillgit -C %s hooks install`", dir, err, dir)
	}
	return rep, nil
}

func printInit(w io.Writer, out initJSON) error {
	res := out.Result
	verb := "Initialized skill repository"
	if res.Adopted {
		verb = "Adopted git repository"
	}
	fmt.Fprintf(w, "%s in %s (publish branch %s)\n", verb, res.Dir, res.Branch)
	if len(res.Skills) > 0 {
		fmt.Fprintf(w, "Published %d built-in skills: %s\n", len(res.Skills), strings.Join(res.Skills, ", "))
	}
	if out.Hooks != nil {
		fmt.Fprintln(w, initHooksLine(out.Hooks))
	}
	for i, step := range initNext(res) {
		lead := "Next: "
		if i > 0 {
			lead = "  or: "
		}
		if _, err := fmt.Fprintln(w, lead+sanitize(step)); err != nil {
			return err
		}
	}
	return nil
}

// initNext is what to do after init, the likeliest first: where skills are published, list
// them; in a new repository with nothing published, write a skill or take a pack's; in a
// bare repository, fill it from a skill repository, or clone it when it has a history.
func initNext(res *initrepo.Result) []string {
	dir := res.Dir
	switch {
	case res.Bare && res.Empty:
		return []string{
			fmt.Sprintf("it is empty until a first push: in a skill repository, `git remote add origin %s`, then `skillgit push origin`", dir),
			fmt.Sprintf("`git clone %s`, then `skillgit init` in the clone", dir),
		}
	case res.Bare:
		return []string{fmt.Sprintf("`git clone %s`, then `skillgit hooks install` in the clone", dir)}
	case len(res.Skills) > 0:
		return []string{fmt.Sprintf("`skillgit -C %s list`", dir)}
	}
	return []string{
		fmt.Sprintf("`skillgit -C %s new NAME`, edit it, then `skillgit -C %s propose NAME`", dir, dir),
		fmt.Sprintf("`skillgit -C %s pack add NAME SOURCE` to take the skills of a pack", dir),
	}
}

// initHooksLine says in one line which hooks init installed, and where.
func initHooksLine(h *hooksJSON) string {
	var names, chained []string
	for _, hk := range h.Hooks {
		names = append(names, hk.Name)
		if hk.Chained != "" {
			chained = append(chained, hk.Name)
		}
	}
	where := h.Dir
	if h.From == string(hooks.FromHooksPath) {
		where += " (core.hooksPath, from " + h.ConfigFile + ")"
	}
	if len(chained) > 0 {
		where += "; the existing " + strings.Join(chained, ", ") + " hook runs first"
	}
	return fmt.Sprintf("Installed git hooks %s in %s", strings.Join(names, ", "), where)
}
