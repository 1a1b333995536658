package main

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/spf13/cobra"
)

type showJSON struct {
	Name          string            `json:"name"`
	Description   string            `json:"description"`
	License       string            `json:"license,omitempty"`
	Compatibility string            `json:"compatibility,omitempty"`
	AllowedTools  string            `json:"allowed_tools,omitempty"`
	Metadata      map[string]string `json:"metadata,omitempty"`
	Path          string            `json:"path"`
	Tree          string            `json:"tree"`
	Branch        string            `json:"branch"`
	// Pack is NAME@COMMIT when the published version is the one a skill pack brought.
	Pack  string     `json:"pack,omitempty"`
	Files []fileJSON `json:"files"`
}

type fileJSON struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
	Mode string `json:"mode"`
}

// showOptions are the argument of show.
type showOptions struct {
	app  *app
	name string
}

func newShowCmd(a *app) *cobra.Command {
	o := &showOptions{app: a}
	c := &cobra.Command{
		Use:   "show NAME",
		Short: "Show a published skill's metadata and files",
		Long: `Show a published skill's metadata and files. A skill whose published version
came from a skill pack says pack: NAME@COMMIT, as list --json does.`,
		Args: exactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.name = args[0]
			return runShow(o)
		},
	}
	a.addJSON(c)
	return c
}

func runShow(o *showOptions) error {
	a, name := o.app, o.name
	r, err := a.openRepo()
	if err != nil {
		return err
	}
	defer r.Close()
	pub := r.Published()
	s, err := pub.Find(name)
	if err != nil {
		return err
	}
	fsys, tree, err := pub.SkillFS(s)
	if err != nil {
		return err
	}
	files, err := listFiles(fsys)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	out := showJSON{Name: s.Name, Description: s.Description, License: s.License, Compatibility: s.Compatibility,
		AllowedTools: s.AllowedTools, Metadata: s.Metadata, Path: s.Dir, Tree: tree.String(),
		Branch: r.Config().PublishBranch, Files: files}
	packs, err := pub.PackProvenance([]string{path.Base(s.Dir)})
	if err != nil {
		return err
	}
	out.Pack = packs[path.Base(s.Dir)]
	return a.printResult(out, func(w io.Writer) error { return printShow(w, &out) })
}

// listFiles lists every entry of a skill folder, without following links.
func listFiles(fsys fs.FS) ([]fileJSON, error) {
	files := []fileJSON{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == "." || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files = append(files, fileJSON{Path: p, Size: info.Size(), Mode: modeName(info.Mode())})
		return nil
	})
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, err
}

func modeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m&fs.ModeIrregular != 0:
		return "submodule"
	case m&0o111 != 0:
		return "executable"
	}
	return "file"
}

func printShow(w io.Writer, s *showJSON) error {
	fmt.Fprintf(w, "name:        %s\n", sanitize(s.Name))
	fmt.Fprintf(w, "description: %s\n", oneLine(s.Description, 2000))
	optional := [][2]string{{"license", s.License}, {"compatibility", s.Compatibility}, {"allowed-tools", s.AllowedTools}}
	for _, kv := range optional {
		if kv[1] != "" {
			fmt.Fprintf(w, "%-13s%s\n", kv[0]+":", oneLine(kv[1], 500))
		}
	}
	printMetadata(w, s.Metadata)
	fmt.Fprintf(w, "path:        %s (on %s, tree %s)\n", sanitize(s.Path), sanitize(s.Branch), s.Tree[:12])
	if s.Pack != "" {
		fmt.Fprintf(w, "pack:        %s\n", oneLine(s.Pack, 200))
	}
	fmt.Fprintf(w, "files:\n")
	for _, f := range s.Files {
		fmt.Fprintf(w, "  %-40s %8d  %s\n", sanitize(f.Path), f.Size, f.Mode)
	}
	return nil
}

func printMetadata(w io.Writer, m map[string]string) {
	if len(m) == 0 {
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	fmt.Fprintf(w, "metadata:    %s\n", oneLine(strings.Join(parts, ", "), 500))
}
