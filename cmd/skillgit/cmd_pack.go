package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/packs"
)

func (a *app) packCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "pack add|update|list|remove",
		Short: "Pull skill packs from git remotes through the review path",
		Long: `A pack is a git repository of skills recorded in .skillgit.yaml. 'pack update'
fetches it (depth 1, over https, ssh, git:// or file) and turns every skill that is
new, changed or gone since what is published into a candidate carrying
Skillgit-Pack: NAME@COMMIT, audited like any other; nothing from the remote
reaches the publish branch without review. The fetched commit and the skills the
pack brings are pinned in ` + packs.LockFile + ` on the publish branch.`,
		Args: exactArgs(0),
	}
	c.AddCommand(a.packAddCommand(), a.packUpdateCommand(), a.packListCommand(), a.packRemoveCommand())
	return c
}

type packAddOptions struct {
	ref, path, author string
}

type packJSON struct {
	Pack    packs.Status `json:"pack"`
	Commit  string       `json:"commit"`
	Channel string       `json:"channel"`
}

func (a *app) packAddCommand() *cobra.Command {
	o := &packAddOptions{}
	c := &cobra.Command{
		Use:   "add NAME URL [--ref R] [--path P]",
		Short: "Record a pack in .skillgit.yaml",
		Long: `Record a pack with a commit on the publish branch. URL is an https, ssh, git://
or file URL, user@host:path, or a local path. --ref names the branch or tag to
follow (default: the remote's HEAD); --path the pack's skills folder (default:
skills/ when the pack has one, else its root). Nothing is fetched until
'skillgit pack update NAME'.`,
		Args: exactArgs(2),
		RunE: func(c *cobra.Command, args []string) error { return a.runPackAdd(o, args[0], args[1]) },
	}
	c.Flags().StringVar(&o.ref, "ref", "", "follow branch or tag `R`")
	c.Flags().StringVar(&o.path, "path", "", "the pack's skills folder `P`")
	addAuthor(c, &o.author)
	a.addJSON(c)
	return c
}

func (a *app) runPackAdd(o *packAddOptions, name, url string) error {
	return a.withRepo(func(r *lifecycle.Repo) error {
		res, err := packs.Add(r, lifecycle.Pack{Name: name, URL: url, Ref: o.ref, Path: o.path}, act(o.author))
		if err != nil {
			return err
		}
		a.printNotes(res)
		if res.ID != "" {
			return a.printPolicyProposal(res, "adding pack "+name)
		}
		st := packs.Status{Name: name, URL: url, Ref: o.ref, Path: o.path, Skills: []string{}}
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

func (a *app) packUpdateCommand() *cobra.Command {
	var author string
	c := &cobra.Command{
		Use:   "update [NAME]",
		Short: "Fetch packs and propose their new, changed and deleted skills",
		Long: `Fetch every pack, or only NAME, with depth 1, and make one candidate for each
skill that is new, changed or gone since what is published. A change that an open
candidate of the pack already proposes is not proposed twice. A pack that holds a
symbolic link, a submodule or a name that is not a plain file name, or an invalid
skill, is refused with nothing written (exit 3); a pack skill named like a skill
that did not come from the pack is a conflict naming both (exit 4). Then the
fetched commit is pinned by a commit on the publish branch.`,
		Args: rangeArgs(0, 1),
		RunE: func(c *cobra.Command, args []string) error {
			name := ""
			if len(args) == 1 {
				name = args[0]
			}
			return a.runPackUpdate(c, name, author)
		},
	}
	addAuthor(c, &author)
	a.addJSON(c)
	return c
}

func (a *app) runPackUpdate(c *cobra.Command, name, author string) error {
	return a.withRepo(func(r *lifecycle.Repo) error {
		o := packs.UpdateOptions{ActOptions: act(author), Context: c.Context()}
		if isTerminal(a.Err) {
			o.Progress = a.Err
		}
		ups, err := packs.Update(r, name, o)
		for _, up := range ups {
			for _, w := range up.Warnings {
				a.warn("%s", sanitize(w))
			}
		}
		if err != nil {
			return err
		}
		return a.printResult(packUpdateJSON{Packs: ups}, func(w io.Writer) error {
			for _, up := range ups {
				if err := writePackUpdate(w, up); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

func writePackUpdate(w io.Writer, up *packs.Result) error {
	was := ""
	if up.Previous != "" && up.Previous != up.Fetched {
		was = " (was " + shortHash(up.Previous) + ")"
	}
	fmt.Fprintf(w, "%s: %s at %s%s: %d candidate(s), %d unchanged\n", sanitize(up.Pack),
		strings.TrimPrefix(up.Ref, "refs/heads/"), shortHash(up.Fetched), was, len(up.Candidates), len(up.Unchanged))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, c := range up.Candidates {
		fmt.Fprintf(tw, "  %s\t%s\t%s\trisk %s\n", c.ID, c.Change, oneLine(c.Skill, 100), c.Risk)
	}
	err := tw.Flush()
	for _, p := range up.Pending {
		_, err = fmt.Fprintf(w, "  already proposed: %s\n", sanitize(p))
	}
	for _, p := range up.Rejected {
		_, err = fmt.Fprintf(w, "  rejected before, not proposed again: %s\n", sanitize(p))
	}
	if up.PolicyCandidate != "" {
		_, err = fmt.Fprintf(w, "  server.protect is on: the new pin is proposed as %s; next: skillgit review %s\n", up.PolicyCandidate, up.PolicyCandidate)
	}
	return err
}

type packListJSON struct {
	Packs []packs.Status `json:"packs"`
}

func (a *app) packListCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "list",
		Short: "List the packs with the commit each is pinned at",
		Args:  exactArgs(0),
		RunE:  func(c *cobra.Command, args []string) error { return a.runPackList() },
	}
	a.addJSON(c)
	return c
}

func (a *app) runPackList() error {
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

func (a *app) packRemoveCommand() *cobra.Command {
	var author string
	c := &cobra.Command{
		Use:   "remove NAME",
		Short: "Drop a pack from .skillgit.yaml; its skills stay published",
		Args:  exactArgs(1),
		RunE:  func(c *cobra.Command, args []string) error { return a.runPackRemove(args[0], author) },
	}
	addAuthor(c, &author)
	a.addJSON(c)
	return c
}

func (a *app) runPackRemove(name, author string) error {
	return a.withRepo(func(r *lifecycle.Repo) error {
		res, err := packs.Remove(r, name, act(author))
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
