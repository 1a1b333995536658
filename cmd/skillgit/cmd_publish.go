package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/lifecycle"
)

// publishOptions are the flags and arguments of publish.
type publishOptions struct {
	app               *app
	ids               []string
	channel, pack, as string
	actor             actorFlags
}

func newPublishCmd(a *app) *cobra.Command {
	o := &publishOptions{app: a}
	c := &cobra.Command{
		Use:   "publish ID... | --pack NAME [--channel canary] | ID --as NAME",
		Short: "Merge an approved candidate into the publish branch",
		Long: `Publish candidate ID as a merge commit on the publish branch (or on canary with
--channel canary). The audit runs again on what is published: high risk is
refused (exit 3), as is a candidate without the approvals the policy asks for.
If the branch changed the same skill since the candidate was made, publish
refuses with exit 4: 'skillgit rebase ID' brings the candidate up to date.

--as NAME publishes a candidate that creates a new skill under another valid
skill name: the folder is published as <skills_dir>/NAME and the name in its
SKILL.md frontmatter becomes NAME, every other byte kept. The renamed SKILL.md
must validate as NAME under the rules the candidate was admitted under (strict,
or those of --lenient for a pack's lenient candidate); a frontmatter whose name the rewrite cannot
replace reliably (a block or multi-line value) is refused (exit 3), as is a
candidate that patches or deletes a skill. A NAME the branch already has, or
that another open candidate proposes, is a conflict (exit 4). The audit runs on
the renamed folder, exactly as it is published. The approvals still count: the
approvers approved the content, and the rename changes only the name; findings
they accepted stay accepted, fingerprinted under the name they were reviewed
under. The
publish commit records NAME in its Skillgit-Published-As trailer; log, list,
show, read and rollback then know the skill as NAME, and --json reports it as
"published_as". --as takes one ID, not several or --pack.` + batchHelp("publishing candidates"),
		Args: publishArgs(&o.pack, &o.as),
		RunE: func(c *cobra.Command, args []string) error {
			o.ids = args
			return runPublish(o)
		},
	}
	c.Flags().StringVar(&o.pack, "pack", "", "publish every open candidate of skill pack `NAME`, one at a time")
	c.Flags().StringVar(&o.as, "as", "", "publish a candidate that creates a new skill under the skill name `NAME`")
	c.Flags().StringVar(&o.channel, "channel", "", "publish to `CHANNEL`: main (the publish branch) or canary")
	addActor(c, &o.actor)
	a.addJSON(c)
	return c
}

// publishArgs checks the arguments of publish: those of a batch, and --as with exactly one
// ID and a valid skill name.
func publishArgs(pack, as *string) cobra.PositionalArgs {
	batch := batchArgs(pack)
	return func(c *cobra.Command, args []string) error {
		if err := batch(c, args); err != nil || !c.Flags().Changed("as") {
			return err
		}
		if *pack != "" || len(args) != 1 {
			return usageError{fmt.Errorf("%s --as NAME publishes one candidate; give exactly one ID, not several or --pack", c.CommandPath())}
		}
		if err := catalog.CheckSkillName(*as); err != nil {
			return usageError{fmt.Errorf("--as %q: %w", *as, err)}
		}
		return nil
	}
}

func runPublish(o *publishOptions) error {
	a, ids, pack, channel, actor, as := o.app, o.ids, o.pack, o.channel, o.actor, o.as
	return a.withRepo(func(r *lifecycle.Repo) error {
		publish := func(id string) (*lifecycle.Result, error) { return r.Publish(id, channel, actor.options()) }
		if as != "" {
			publish = func(id string) (*lifecycle.Result, error) { return r.PublishAs(id, channel, as, actor.options()) }
		}
		if pack == "" && len(ids) == 1 {
			res, err := publish(ids[0])
			if err != nil {
				return err
			}
			return a.printAction(res, publishedLine(res))
		}
		ids, ok, err := a.batchTargets(r, ids, pack)
		if !ok || err != nil {
			return err
		}
		return a.runBatch(r, batch{label: "publishing candidates", act: publish, line: publishedLine, held: true}, ids)
	})
}

// publishedLine reports one publish.
func publishedLine(res *lifecycle.Result) string {
	if res.PublishedAs != "" {
		return fmt.Sprintf("Published %s as %s (candidate %s) to %s as %s, risk %s",
			oneLine(res.Skill, 100), res.PublishedAs, res.ID, res.Channel, shortHash(res.Commit), res.Risk)
	}
	return fmt.Sprintf("Published %s (candidate %s) to %s as %s, risk %s",
		oneLine(res.Skill, 100), res.ID, res.Channel, shortHash(res.Commit), res.Risk)
}
