package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
)

type newOptions struct {
	app              *app
	name             string
	description, dir string
}

type newJSON struct {
	Name string `json:"name"`
	Path string `json:"path"`
}

func newNewCmd(a *app) *cobra.Command {
	o := &newOptions{app: a}
	c := &cobra.Command{
		Use:   "new NAME",
		Short: "Scaffold a valid skill folder in the working tree",
		Long: `Create NAME/SKILL.md with valid frontmatter and an outline to fill in. The folder is
made in --dir (relative to -C, like every path), else in the repository's skills folder,
else in the current folder.`,
		Args: exactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.name = args[0]
			return runNew(o)
		},
	}
	c.Flags().StringVar(&o.description, "description", "", "what the skill does and when to use it")
	c.Flags().StringVar(&o.dir, "dir", "", "create the skill folder inside `DIR`")
	a.addJSON(c)
	return c
}

func runNew(o *newOptions) error {
	a, name := o.app, o.name
	if err := catalog.CheckSkillName(name); err != nil {
		return err
	}
	parent, err := o.parent()
	if err != nil {
		return err
	}
	desc := o.description
	if desc == "" {
		desc = fmt.Sprintf("Describe what %s does and when an agent should use it.", name)
	}
	file, err := scaffoldSkill(parent, name, catalog.Scaffold(name, desc))
	if err != nil {
		return err
	}
	out := newJSON{Name: name, Path: file}
	return a.printResult(out, func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "Created %s\nEdit it, then run `skillgit validate %s`.\n", file, filepath.Dir(file))
		return err
	})
}

// parent picks the folder a new skill goes into.
func (o *newOptions) parent() (string, error) {
	a, dir := o.app, o.dir
	if dir != "" {
		return a.path(dir), nil
	}
	r, err := lifecycle.Open(a.repo)
	if errors.Is(err, lifecycle.ErrNotInitialized) || errors.Is(err, gitstore.ErrNotRepository) {
		return a.repo, nil
	}
	if err != nil {
		return "", err
	}
	defer r.Close()
	wt := r.Git().WorktreeDir()
	if wt == "" {
		return "", fmt.Errorf("%s: a bare repository has no working tree; pass --dir", r.Git().GitDir())
	}
	return filepath.Join(wt, filepath.FromSlash(r.Config().SkillsDir)), nil
}

// scaffoldSkill writes parent/name/SKILL.md without following links out of parent.
func scaffoldSkill(parent, name string, data []byte) (string, error) {
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", err
	}
	root, err := os.OpenRoot(parent)
	if err != nil {
		return "", err
	}
	defer root.Close()
	file := filepath.Join(parent, name, catalog.FileName)
	if err := root.Mkdir(name, 0o755); err != nil {
		if errors.Is(err, os.ErrExist) {
			return "", fmt.Errorf("%s: already exists; choose another name or edit it", filepath.Join(parent, name))
		}
		return "", err
	}
	if err := root.WriteFile(filepath.Join(name, catalog.FileName), data, 0o644); err != nil {
		return "", fmt.Errorf("%s: %w", file, err)
	}
	return file, nil
}
