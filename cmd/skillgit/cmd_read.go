package main

import (
	"bytes"
	"io"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/published"
)

type readJSON struct {
	Skills   []readEntry    `json:"skills"`
	Shadowed []shadowedJSON `json:"shadowed,omitempty"`
}

type readOptions struct {
	app       *app
	names     []string
	withRefs  bool
	installed installedFlags
}

type readEntry struct {
	Name    string `json:"name"`
	BaseDir string `json:"base_dir"`
	Content string `json:"content"`
	Scope   string `json:"scope,omitempty"`
}

func newReadCmd(a *app) *cobra.Command {
	o := &readOptions{app: a}
	c := &cobra.Command{
		Use:   "read NAME...",
		Short: "Print published skills the way agents load them",
		Long: `Print each named skill from the publish branch in the format agents parse:
"Reading: NAME", "Base directory: DIR", a blank line, the SKILL.md, a blank line,
"Skill read: NAME". DIR is a read-only copy of the skill's published folder under
the git dir (skillgit/published/), never the working tree, which may hold edits
that are not published.

--with-references appends after the SKILL.md the text files below the skill's
references/ folder (regular files only, in path order), each after a
"Reference: PATH" line. An installed skill's DIR is its own folder.
` + installedHelp,
		Args: minArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.names = args
			return runRead(o)
		},
	}
	c.Flags().BoolVar(&o.withRefs, "with-references", false, "append each skill's references/ text files")
	addInstalledFlags(c, &o.installed)
	a.addJSON(c)
	return c
}

func runRead(o *readOptions) error {
	a, names := o.app, o.names
	if o.installed.set() {
		return runReadInstalled(o)
	}
	r, err := lifecycle.Open(a.repo)
	if noSkillRepository(err) {
		return runReadInstalled(o)
	}
	if err != nil {
		return err
	}
	defer r.Close()
	out := readJSON{Skills: []readEntry{}}
	pub := r.Published()
	pc := pub.Copies()
	defer pc.Prune()
	for _, n := range names {
		e, err := readOne(pub, pc, n, o.withRefs)
		if err != nil {
			return err
		}
		out.Skills = append(out.Skills, e)
	}
	return a.printResult(out, func(w io.Writer) error { return printRead(w, out.Skills) })
}

func readOne(pub *published.Channel, pc *published.Copies, name string, refs bool) (readEntry, error) {
	s, err := pub.Find(name)
	if err != nil {
		return readEntry{}, err
	}
	data, err := pub.Content(s)
	if err != nil {
		return readEntry{}, err
	}
	if data, err = withReferences(data, refs, func() ([]catalog.Reference, error) { return pub.References(s) }); err != nil {
		return readEntry{}, err
	}
	dir, err := pc.Dir(s)
	if err != nil {
		return readEntry{}, err
	}
	return readEntry{Name: s.Name, BaseDir: dir, Content: string(data)}, nil
}

func printRead(w io.Writer, entries []readEntry) error {
	var b bytes.Buffer
	for _, e := range entries {
		if err := catalog.WriteRead(&b, e.Name, e.BaseDir, []byte(e.Content)); err != nil {
			return err
		}
	}
	return writeSkillText(w, b.Bytes())
}
