package main

import (
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/packs"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

type packPreviewOptions struct {
	app       *app
	source    string
	ref, path string
	sel       packSelection
}

func newPackPreviewCmd(a *app) *cobra.Command {
	o := &packPreviewOptions{app: a}
	c := &cobra.Command{
		Use:   "preview SOURCE [--ref R] [--path P] [--include GLOB]... [--exclude GLOB]... [--prefix P]",
		Short: "Show what a pack source holds, writing nothing",
		Long: `Fetch SOURCE (as 'pack add' reads it) into a temporary repository, as 'pack
update' does, and list its skills: the name each would be stored under, its
description, its status (ok; lenient: admitted only with --lenient; invalid or
unsafe, with why; not selected) and the audit's risk. Inside a skillgit repository
the audit uses the repository's policy, elsewhere the defaults. Nothing is written
to the repository or to any cache, and the temporary repository is removed.`,
		Args: exactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.source = args[0]
			return runPackPreview(c, o)
		},
	}
	c.Flags().StringVar(&o.ref, "ref", "", "branch or tag `R`")
	c.Flags().StringVar(&o.path, "path", "", "the pack's skills folder, or one skill's folder, `P`")
	o.sel.addFlags(c)
	c.Flags().Lookup("lenient").Hidden = true
	a.addJSON(c)
	return c
}

func runPackPreview(c *cobra.Command, o *packPreviewOptions) error {
	a := o.app
	p, err := o.sel.pack("", o.source, o.ref, o.path)
	if err != nil {
		return err
	}
	po := packs.PreviewOptions{Pack: p, Dir: a.repo, Context: c.Context()}
	if isTerminal(a.Err) {
		po.Progress = a.Err
	}
	if po.Policy, err = previewPolicy(a.repo); err != nil {
		return err
	}
	pv, err := packs.PreviewSource(po)
	if errors.Is(err, packs.ErrSourceFlags) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	return a.printResult(pv, func(w io.Writer) error { return writePreview(w, pv) })
}

// previewPolicy is the audit policy of the repository in dir, or nil (the
// defaults) outside one.
func previewPolicy(dir string) (*policy.AuditPolicy, error) {
	r, err := lifecycle.Open(dir)
	if errors.Is(err, lifecycle.ErrNotInitialized) || errors.Is(err, gitstore.ErrNotRepository) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.AuditRunner().PolicyAt(r.Tip(), r.Branch())
}

func writePreview(w io.Writer, pv *packs.Preview) error {
	fmt.Fprintf(w, "%s at %s (%s): %d skill(s)\n", sanitize(pv.URL), shortHash(pv.Commit), sanitize(pv.Ref), len(pv.Skills))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSTATUS\tRISK\tDESCRIPTION")
	for _, s := range pv.Skills {
		risk, desc := s.Risk, oneLine(s.Description, 80)
		if risk == "" {
			risk = "-"
		}
		if s.Reason != "" {
			desc = oneLine(s.Reason, 160)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", oneLine(s.Name, 80), s.Status, risk, desc)
	}
	return tw.Flush()
}
