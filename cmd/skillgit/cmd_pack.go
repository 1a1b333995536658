package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/packs"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

func newPackCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "pack add|update|preview|list|remove",
		Short: "Pull skill packs from git remotes through the review path",
		Long: `A pack is a git repository of skills recorded in .skillgit.yaml. 'pack update'
fetches it (depth 1, over https, ssh, git:// or file) and turns every skill that is
new, changed or gone since what is published into a candidate carrying
Skillgit-Pack: NAME@COMMIT, audited like any other; nothing from the remote
reaches the publish branch without review. The fetched commit and the skills the
pack brings are pinned in ` + packs.LockFile + ` on the publish branch. 'pack preview'
shows what a source holds without writing anything.`,
		Args: exactArgs(0),
	}
	c.AddCommand(newPackAddCmd(a), newPackUpdateCmd(a), newPackPreviewCmd(a), newPackListCmd(a), newPackRemoveCmd(a))
	return c
}

type packAddOptions struct {
	app               *app
	name, source      string
	ref, path, author string
	sel               packSelection
}

// packSelection holds the flags that pick and name a pack's skills.
type packSelection struct {
	include, exclude []string
	prefix           string
	lenient          bool
}

func (o *packSelection) addFlags(c *cobra.Command) {
	c.Flags().StringArrayVar(&o.include, "include", nil, "take only the skills whose names match `GLOB` (repeatable; path.Match syntax)")
	c.Flags().StringArrayVar(&o.exclude, "exclude", nil, "leave out the skills whose names match `GLOB` (repeatable)")
	c.Flags().StringVar(&o.prefix, "prefix", "", "store each skill as `P`NAME, folder and name: both")
	c.Flags().BoolVar(&o.lenient, "lenient", false, "admit skills that agents load but the validator refuses, marked with a warning")
}

// pack is the pack the flags describe; bad globs or prefix are usage errors.
func (o *packSelection) pack(name, source, ref, path string) (policy.Pack, error) {
	p := policy.Pack{Name: name, URL: source, Ref: ref, Path: path, Include: o.include, Exclude: o.exclude, Prefix: o.prefix, Lenient: o.lenient}
	if err := policy.CheckPackSelection(p); err != nil {
		return p, usageError{err}
	}
	return p, nil
}

type packJSON struct {
	Pack    packs.Status `json:"pack"`
	Commit  string       `json:"commit"`
	Channel string       `json:"channel"`
}

func newPackAddCmd(a *app) *cobra.Command {
	o := &packAddOptions{app: a}
	c := &cobra.Command{
		Use:   "add NAME SOURCE [--ref R] [--path P] [--include GLOB]... [--exclude GLOB]... [--prefix P] [--lenient]",
		Short: "Record a pack in .skillgit.yaml",
		Long: `Record a pack with a commit on the publish branch. SOURCE is an https, ssh,
git:// or file URL, user@host:path, owner/repo (GitHub over https), a GitHub
.../tree/REF/PATH address (recorded as url, ref and path; a --ref or --path that
names something else is a usage error), or a local path, recorded relative to the
repository's top folder (an absolute path is refused: the configuration is shared).
--ref names the branch or tag to follow (default: the remote's HEAD); --path the
pack's skills folder, or a single skill's folder (default: skills/ when the pack
has one, else its root). --include and --exclude pick skills by name with
path.Match globs, matched against the names the pack gives them. --prefix P
stores each skill as PNAME: folder and the name in SKILL.md, every other byte
kept; use it when two packs have skills of one name. --lenient admits skills that
agents load but the reference validator refuses (a long description, unknown
frontmatter keys) as candidates marked with a warning. Nothing is fetched until
'skillgit pack update NAME'; 'skillgit pack preview SOURCE' shows what a source holds.`,
		Args: exactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			o.name, o.source = args[0], args[1]
			return runPackAdd(o)
		},
	}
	c.Flags().StringVar(&o.ref, "ref", "", "follow branch or tag `R`")
	c.Flags().StringVar(&o.path, "path", "", "the pack's skills folder, or one skill's folder, `P`")
	o.sel.addFlags(c)
	addAuthor(c, &o.author)
	a.addJSON(c)
	return c
}

func runPackAdd(o *packAddOptions) error {
	a, name, source := o.app, o.name, o.source
	p, err := o.sel.pack(name, source, o.ref, o.path)
	if err != nil {
		return err
	}
	return a.withRepo(func(r *lifecycle.Repo) error {
		res, err := packs.Add(r, p, act(o.author))
		if errors.Is(err, packs.ErrSourceFlags) {
			return usageError{err}
		}
		if err != nil {
			return err
		}
		a.printNotes(res)
		if res.ID != "" {
			return a.printPolicyProposal(res, "adding pack "+name)
		}
		st := packs.Status{Name: name, URL: source, Ref: o.ref, Path: o.path, Skills: []string{}}
		if fresh, err := lifecycle.Open(a.repo); err == nil {
			if list, err := packs.List(fresh); err == nil {
				st = findPack(list, name, st)
			}
			fresh.Close()
		}
		out := packJSON{Pack: st, Commit: res.Commit, Channel: res.Channel}
		return a.printResult(out, func(w io.Writer) error {
			_, err := fmt.Fprintf(w, "Pack %s (%s) added on %s as %s; next: skillgit pack update %s\n",
				sanitize(name), sanitize(st.URL), res.Channel, shortHash(res.Commit), sanitize(name))
			return err
		})
	})
}

func findPack(list []packs.Status, name string, def packs.Status) packs.Status {
	for _, p := range list {
		if p.Name == name {
			return p
		}
	}
	return def
}

type packUpdateJSON struct {
	Packs []*packs.Result `json:"packs"`
}

// packUpdateOptions are the flags and argument of pack update.
type packUpdateOptions struct {
	app          *app
	name, author string
	lenient      bool
}

func newPackUpdateCmd(a *app) *cobra.Command {
	o := &packUpdateOptions{app: a}
	c := &cobra.Command{
		Use:   "update [NAME] [--lenient]",
		Short: "Fetch packs and propose their new, changed and deleted skills",
		Long: `Fetch every pack, or only NAME, with depth 1, and make one candidate for each
selected skill that is new, changed or gone since what is published. A change that
an open candidate of the pack already proposes is not proposed twice. Each pack is
updated on its own, and within a pack each skill: a skill that is invalid, or holds
a symbolic link, a submodule or a name that is not a plain file name, is skipped
with its reason, and so is a skill named like a skill of another pack or of the
repository (give one of the packs a prefix, or exclude the skill); the rest of the
pack becomes candidates. A fetch failure, the size budget or a missing path fails
the whole pack, with nothing written for it. A skill the pack brought that its
include/exclude now leave out is reported as no longer selected: the pack stops
managing it and it stays published. Then the fetched commit and the skills the
pack owns are pinned by a commit on the publish branch. --lenient admits, for this
run, what a pack with lenient: true admits.

The candidates are made in groups of up to 256 (or what two seconds make): a
group's objects are written as one pack and its branches are created together;
an interrupted update leaves the groups it finished, and the next update proposes
the rest.

` + progressHelp("an update", "proposing candidates") + `

Exit code: the worst outcome over all packs: 1 when a pack failed (fetch, missing
path), else 3 when a pack was refused (over its size budget) or a skill was
skipped as invalid or unsafe or a candidate is blocked by the audit, else 4 when
a skill was skipped for a name clash, else 0.`,
		Args: rangeArgs(0, 1),
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.name = args[0]
			}
			return runPackUpdate(c, o)
		},
	}
	c.Flags().BoolVar(&o.lenient, "lenient", false, "admit skills that agents load but the validator refuses, marked with a warning")
	addAuthor(c, &o.author)
	a.addJSON(c)
	return c
}

func runPackUpdate(c *cobra.Command, po *packUpdateOptions) error {
	a := po.app
	return a.withRepo(func(r *lifecycle.Repo) error {
		o := packs.UpdateOptions{ActOptions: act(po.author), Context: c.Context(), Lenient: po.lenient, Brief: !a.json}
		if isTerminal(a.Err) {
			o.Progress = a.Err
		}
		bar := a.batchProgress("proposing candidates")
		o.Step = bar.Update
		ups, err := packs.Update(r, po.name, o)
		bar.Done()
		if err != nil {
			return err
		}
		for _, up := range ups {
			for _, w := range up.Warnings {
				a.warn("%s", sanitize(w))
			}
		}
		err = a.printResult(packUpdateJSON{Packs: ups}, func(w io.Writer) error {
			for _, up := range ups {
				if err := writePackUpdate(w, up); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if code := packUpdateExit(ups); code != ExitOK {
			return quietExit{code}
		}
		return nil
	})
}

// packUpdateExit is the worst outcome of the packs: 1 > 3 > 4 > 0.
func packUpdateExit(ups []*packs.Result) int {
	code := ExitOK
	for _, up := range ups {
		switch {
		case up.Err() != nil && !errors.Is(up.Err(), lifecycle.ErrRefused):
			return ExitError
		case up.Err() != nil || up.Refused():
			code = ExitRefused
		case up.Conflicted() && code == ExitOK:
			code = ExitConflict
		}
	}
	return code
}

func writePackUpdate(w io.Writer, up *packs.Result) error {
	if up.Error != "" && up.Fetched == "" {
		_, err := fmt.Fprintf(w, "%s: failed: %s\n", sanitize(up.Pack), sanitize(up.Error))
		return err
	}
	was := ""
	if up.Previous != "" && up.Previous != up.Fetched {
		was = " (was " + shortHash(up.Previous) + ")"
	}
	fmt.Fprintf(w, "%s: %s at %s%s: %d candidate(s), %d unchanged, %d skipped\n", sanitize(up.Pack),
		strings.TrimPrefix(up.Ref, "refs/heads/"), shortHash(up.Fetched), was, len(up.Candidates), len(up.Unchanged), len(up.Skipped))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, c := range up.Candidates {
		fmt.Fprintf(tw, "  %s\t%s\t%s\trisk %s\n", c.ID, c.Change, oneLine(c.Skill, 100), c.Risk)
	}
	err := tw.Flush()
	for _, s := range up.Skipped {
		_, err = fmt.Fprintf(w, "  skipped (%s): %s: %s\n", s.Kind, sanitize(s.Skill), oneLine(s.Reason, 400))
	}
	for _, n := range up.NotSelected {
		_, err = fmt.Fprintf(w, "  no longer selected, stays published and is no longer managed by the pack: %s\n", sanitize(n))
	}
	for _, p := range up.Pending {
		_, err = fmt.Fprintf(w, "  already proposed: %s\n", sanitize(p))
	}
	for _, p := range up.Rejected {
		_, err = fmt.Fprintf(w, "  rejected before, not proposed again: %s\n", sanitize(p))
	}
	if up.PolicyCandidate != "" {
		_, err = fmt.Fprintf(w, "  server.protect is on: the new pin is proposed as %s; next: skillgit review %s\n", up.PolicyCandidate, up.PolicyCandidate)
	}
	if up.Error != "" {
		_, err = fmt.Fprintf(w, "  failed: %s\n", sanitize(up.Error))
	}
	return err
}

type packListJSON struct {
	Packs []packs.Status `json:"packs"`
}

func newPackListCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "list",
		Short: "List the packs with the commit each is pinned at",
		Args:  exactArgs(0),
		RunE:  func(c *cobra.Command, args []string) error { return runPackList(a) },
	}
	a.addJSON(c)
	return c
}

func runPackList(a *app) error {
	return a.withRepo(func(r *lifecycle.Repo) error {
		list, err := packs.List(r)
		if err != nil {
			return err
		}
		if len(list) == 0 && !a.json {
			fmt.Fprintln(a.Err, "no packs; add one with `skillgit pack add NAME URL`")
			return nil
		}
		return a.printResult(packListJSON{Packs: list}, func(w io.Writer) error { return writePackList(w, list) })
	})
}

// writePackList writes one aligned row per pack, under a header.
func writePackList(w io.Writer, list []packs.Status) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tURL\tREF\tPINNED AT\tSKILLS")
	for _, p := range list {
		pin := "not fetched"
		if p.Commit != "" {
			pin = shortHash(p.Commit)
		}
		ref := p.Ref
		if ref == "" {
			ref = "HEAD"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\n", oneLine(p.Name, 100), oneLine(p.URL, 200), oneLine(ref, 100), pin, len(p.Skills))
	}
	return tw.Flush()
}

type packRemoveJSON struct {
	Pack    string `json:"pack"`
	Commit  string `json:"commit"`
	Channel string `json:"channel"`
}

// packRemoveOptions are the flag and argument of pack remove.
type packRemoveOptions struct {
	app          *app
	name, author string
}

func newPackRemoveCmd(a *app) *cobra.Command {
	o := &packRemoveOptions{app: a}
	c := &cobra.Command{
		Use:   "remove NAME",
		Short: "Drop a pack from .skillgit.yaml; its skills stay published",
		Args:  exactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.name = args[0]
			return runPackRemove(o)
		},
	}
	addAuthor(c, &o.author)
	a.addJSON(c)
	return c
}

func runPackRemove(o *packRemoveOptions) error {
	a, name := o.app, o.name
	return a.withRepo(func(r *lifecycle.Repo) error {
		res, err := packs.Remove(r, name, act(o.author))
		if err != nil {
			return err
		}
		a.printNotes(res)
		if res.ID != "" {
			return a.printPolicyProposal(res, "removing pack "+name)
		}
		out := packRemoveJSON{Pack: name, Commit: res.Commit, Channel: res.Channel}
		return a.printResult(out, func(w io.Writer) error {
			_, err := fmt.Fprintf(w, "Pack %s removed on %s as %s\n", sanitize(name), res.Channel, shortHash(res.Commit))
			return err
		})
	})
}
