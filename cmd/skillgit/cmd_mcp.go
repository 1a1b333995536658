package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/internal/hugeheap"
	"github.com/skillgit/skillgit/internal/interrupt"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/mcpserver"
)

// mcpOptions are the flag of mcp.
type mcpOptions struct {
	app    *app
	author string
}

func newMCPCmd(a *app) *cobra.Command {
	o := &mcpOptions{app: a}
	c := &cobra.Command{
		Use:   "mcp [--author \"Name <email>\"]",
		Short: "Serve the skill lifecycle to agents over MCP on stdin and stdout",
		Long: `Run a Model Context Protocol server for the repository on stdin and stdout, so that
an agent can list, read and match published skills, propose, revise and review
candidates, publish and roll back.

Tools: list_skills, read_skill, match_skills, get_mode, list_candidates,
review_candidate, create_candidate, patch_candidate, delete_candidate,
publish_candidate, rollback_skill. Resources: skillgit://skill/NAME, the SKILL.md
of each published skill.

Every tool runs the same code as the command that does the same job, under the same
policy. The agent counts as unattended: it cannot approve, it can publish only what
the mode ('skillgit mode') would publish on its own, and medium- and high-risk
changes always wait for a person. It manages only the skills in the agents' scope
(agent_scope in .skillgit.yaml, default learned-*, metadata.managed-by: skillgit,
and the skills it creates): its changes to a person's or a pack's skill wait
for a person, and it cannot roll them back. Its commits carry the trailer 'Skillgit-Via: mcp'
and the identity of --author, else $SKILLGIT_AUTHOR, else the git identity.

stdout carries only the protocol; one line on stderr says what is served. The server
stops at the end of its input, or on SIGINT or SIGTERM. In an agent's MCP settings,
run it as: skillgit -C REPO mcp --author "Agent <agent@example.com>"`,
		Args: exactArgs(0),
		RunE: func(c *cobra.Command, _ []string) error { return runMCP(c.Context(), o) },
	}
	addAuthor(c, &o.author)
	return c
}

func runMCP(ctx context.Context, o *mcpOptions) error {
	a, author := o.app, o.author
	if author != "" {
		if _, _, err := lifecycle.ParseActor(author); err != nil {
			return usageError{fmt.Errorf("--author: %w", err)}
		}
	}
	interrupt.Gracefully() // the server stops when ctx is cancelled, and exits 0
	hugeheap.Settle()      // it runs long
	return a.withRepo(func(r *lifecycle.Repo) error {
		srv, err := mcpserver.New(r, mcpserver.Options{Author: author, Version: a.version, Getenv: getenv})
		if err != nil {
			return err
		}
		fmt.Fprintf(a.Err, "skillgit mcp: serving the skills of %s (mode %s) on stdin and stdout\n", r.Config().PublishBranch, r.Config().Mode)
		return srv.Serve(ctx, a.In, a.Out)
	})
}
