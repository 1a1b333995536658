package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/skills"
)

type initOptions struct {
	bare, builtin bool
	branch        string
}

func (a *app) initCommand() *cobra.Command {
	o := &initOptions{}
	c := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Create a skill repository, or adopt an existing git repository",
		Long: `Create a skill repository in DIR (default: the current folder), or adopt the git
repository there with one commit that adds .skillgit.yaml and the skills folder.
With --builtin, also publish the built-in skills (how agents use skillgit, how to
write a skill).`,
		Args: rangeArgs(0, 1),
		RunE: func(c *cobra.Command, args []string) error { return a.runInit(o, args) },
	}
	c.Flags().BoolVar(&o.bare, "bare", false, "create a bare repository (no working tree)")
	c.Flags().BoolVar(&o.builtin, "builtin", false, "publish the built-in skill pack")
	c.Flags().StringVar(&o.branch, "branch", "", "publish branch (default main, or the checked-out branch of an adopted repository)")
	a.addJSON(c)
	return c
}

func (a *app) runInit(o *initOptions, args []string) error {
	dir := a.repo
	if len(args) == 1 {
		dir = args[0]
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(a.repo, dir)
		}
	}
	opts := lifecycle.InitOptions{Dir: dir, Bare: o.bare, Branch: o.branch}
	if o.builtin {
		opts.Pack, opts.PackName, opts.PackVersion = skills.FS(), "builtin", skills.Version
	}
	res, err := lifecycle.Init(opts)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		a.warn("%s", w)
	}
	return a.printResult(res, func(w io.Writer) error { return printInit(w, res) })
}

func printInit(w io.Writer, res *lifecycle.InitResult) error {
	verb := "Initialized skill repository"
	if res.Adopted {
		verb = "Adopted git repository"
	}
	fmt.Fprintf(w, "%s in %s (publish branch %s)\n", verb, res.Dir, res.Branch)
	if len(res.Skills) > 0 {
		fmt.Fprintf(w, "Published %d built-in skills: %s\n", len(res.Skills), strings.Join(res.Skills, ", "))
	}
	_, err := fmt.Fprintf(w, "Next: skillgit -C %s list\n", res.Dir)
	return err
}
