package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/lifecycle/agentsync"
)

// promptWrite holds --write and --dry-run of prompt.
type promptWrite struct {
	file   string
	dryRun bool
}

const promptWriteHelp = `
--write FILE keeps the block in an agent instructions file such as AGENTS.md or
CLAUDE.md, between <!-- SKILLS_TABLE_START --> and <!-- SKILLS_TABLE_END -->, with each
location as printed above, instead of printing it; a relative FILE starts at -C DIR.
Text outside the markers is never changed; a missing file is created; a symbolic link,
a file over 1 MiB or broken markers are refused. --dry-run checks FILE and writes
nothing. With --json: {"file": FILE, "written": BOOL, "skills": [...]}.
`

// addPromptWrite declares --write and --dry-run on prompt.
func addPromptWrite(c *cobra.Command, w *promptWrite) {
	c.Long += promptWriteHelp
	f := c.Flags()
	f.StringVar(&w.file, "write", "", "keep the block in agent instructions file `FILE` instead of printing it")
	f.BoolVar(&w.dryRun, "dry-run", false, "with --write, check FILE and write nothing")
}

// check refuses --write with what it cannot hold, and --dry-run without --write.
func (w promptWrite) check(bodies bool) error {
	switch {
	case w.dryRun && w.file == "":
		return usageError{fmt.Errorf("--dry-run applies only with --write")}
	case w.file != "" && bodies:
		return usageError{fmt.Errorf("--write keeps only the block of skills; drop --with-bodies")}
	}
	return nil
}

type promptWriteJSON struct {
	File    string        `json:"file"`
	Written bool          `json:"written"`
	Skills  []promptEntry `json:"skills"`
}

// emit prints the prompt's output, or with --write keeps it in the file.
func (o *promptOptions) emit(out promptJSON) error {
	a := o.app
	if o.write.file == "" {
		return a.printResult(out, func(w io.Writer) error { return printPrompt(w, out.Skills, o.withBodies) })
	}
	file := o.write.file
	if !filepath.IsAbs(file) {
		file = filepath.Join(a.repo, file)
	}
	list := make([]catalog.PromptEntry, len(out.Skills))
	for i, e := range out.Skills {
		list[i] = catalog.PromptEntry{Name: e.Name, Description: e.Description, Location: e.Location, Scope: e.Scope}
	}
	if err := agentsync.UpdateInstructions(file, list, o.write.dryRun); err != nil {
		return err
	}
	res := promptWriteJSON{File: file, Written: !o.write.dryRun, Skills: out.Skills}
	return a.printResult(res, func(w io.Writer) error {
		if o.write.dryRun {
			_, err := fmt.Fprintf(w, "would keep the block of %d skill(s) in %s; dry run: nothing was written\n", len(list), file)
			return err
		}
		_, err := fmt.Fprintf(w, "kept the block of %d skill(s) in %s\n", len(list), file)
		return err
	})
}
