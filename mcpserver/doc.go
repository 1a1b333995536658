// Package mcpserver serves a skill repository's lifecycle to agents over the Model Context
// Protocol (DESIGN.md §9): listing, reading and matching published skills, proposing,
// revising and reviewing candidates, publishing and rolling back.
//
// Every tool calls the same lifecycle functions as the CLI, so it obeys exactly the same
// policy. The server acts unattended (lifecycle.ActOptions.Unattended): an agent can publish
// or roll back no more than the repository's mode would publish on its own, it can never
// approve, it manages only the skills in the agents' scope (agent_scope in .skillgit.yaml, or
// metadata.managed-by: skillgit), and every commit it makes carries the trailer Skillgit-Via: mcp. Published skills
// are also served as resources, skillgit://skill/{name}.
package mcpserver
