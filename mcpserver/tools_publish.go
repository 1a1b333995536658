package mcpserver

import (
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillgit/skillgit/lifecycle"
)

// publishing marks a tool that changes what agents load.
var publishing = &mcp.ToolAnnotations{DestructiveHint: new(true), OpenWorldHint: new(false)}

func (s *Server) addPublishTools() {
	addTool(s, &mcp.Tool{Name: "publish_candidate", Annotations: publishing,
		Description: "Publish a candidate to the publish branch (main) or the canary channel. " +
			"An agent may publish only what the mode would publish on its own (see get_mode); anything else is refused with what a person must do. " + scopeNote},
		limits{"id": idLimits, "channel": all(enum("main", "canary"), withDefault("main"))}, s.publishCandidate)
	addTool(s, &mcp.Tool{Name: "rollback_skill", Annotations: publishing,
		Description: "Roll a published skill back to what it was before its latest publish still in effect (repeated calls walk back), or before the publish commit given, with a revert commit on the publish branch. " +
			"A rollback publishes the version it restores: an agent may roll back only what the mode would publish on its own (see get_mode); a rollback cannot be undone, propose the version again instead. " +
			"An agent may not roll back a skill outside the agents' scope (a person's skill or a skill pack's skill). " + scopeNote},
		limits{"name": nameLimits, "commit": all(strLen(4, 64), pattern(`^[0-9a-f]+$`))}, s.rollbackSkill)
}

type publishIn struct {
	ID      string `json:"id" jsonschema:"the candidate to publish: its id, or the name of a skill with exactly one open candidate"`
	Channel string `json:"channel,omitempty" jsonschema:"main (the publish branch) or canary"`
}

func (s *Server) publishCandidate(r *lifecycle.Repo, in publishIn) (actionOut, error) {
	res, err := r.Publish(in.ID, in.Channel, s.act)
	if err != nil {
		return actionOut{}, err
	}
	return actionResult(r, res), nil
}

type rollbackIn struct {
	Name   string `json:"name" jsonschema:"the published skill to roll back"`
	Commit string `json:"commit,omitempty" jsonschema:"a publish commit of the skill (full or abbreviated hex) to undo instead of its latest publish"`
}

type rollbackOut struct {
	Skill     string   `json:"skill"`
	Candidate string   `json:"candidate,omitempty" jsonschema:"the candidate whose publish was undone"`
	Reverts   string   `json:"reverts" jsonschema:"the publish commit undone"`
	Commit    string   `json:"commit" jsonschema:"the rollback commit"`
	Channel   string   `json:"channel"`
	Risk      string   `json:"risk" jsonschema:"the audit's rating of the version restored"`
	Warnings  []string `json:"warnings,omitempty"`
}

func (s *Server) rollbackSkill(r *lifecycle.Repo, in rollbackIn) (rollbackOut, error) {
	res, err := r.Rollback(in.Name, in.Commit, s.act)
	if errors.Is(err, lifecycle.ErrNotFound) {
		if _, ferr := r.Published().Find(in.Name); ferr != nil {
			err = ferr // say the skill is unknown, not merely never published
		}
	}
	if err != nil {
		return rollbackOut{}, err
	}
	return rollbackOut{Skill: in.Name, Candidate: res.ID, Reverts: res.Reverts, Commit: res.Commit, Channel: res.Channel,
		Risk: res.Risk, Warnings: res.Warnings}, nil
}
