package mcpserver

import (
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/lifecycle"
)

// proposing marks a tool that records a candidate and never changes what is published by
// itself (the mode may publish a low-risk change on its own).
var proposing = &mcp.ToolAnnotations{DestructiveHint: new(false), OpenWorldHint: new(false)}

// contentLimits are the schema limits of a skill's content sent as fields or files.
var contentLimits = limits{
	"description":   strLen(1, maxDescriptionLen),
	"body":          strLen(1, maxFileBytes),
	"files":         all(array(1, maxFiles)),
	"files.path":    strLen(1, maxPathLen),
	"files.content": strLen(0, maxFileBytes),
}

func (s *Server) addProposeTools() {
	create := withLimits(contentLimits, limits{"name": nameLimits, "message": strLen(0, maxMessageLen)})
	addTool(s, &mcp.Tool{Name: "create_candidate", Annotations: proposing,
		Description: "Propose a skill as a candidate for review: a new skill, or a new version of a published one. " +
			"Give either name, description and body (the Markdown after the frontmatter; the other files of a published skill are kept), " +
			"or files, the whole skill folder including SKILL.md. The audit rates the change; the mode's policy may approve or publish a low-risk change at once (see get_mode). " +
			scopeNote},
		create, s.createCandidate)
	patch := withLimits(contentLimits, limits{"id": idLimits, "message": strLen(1, maxMessageLen)})
	addTool(s, &mcp.Tool{Name: "patch_candidate", Annotations: proposing,
		Description: "Send a new version of an open candidate, answering review feedback (message). " +
			"Give body and/or description to change its SKILL.md and keep its other files, or files, the whole new skill folder including SKILL.md. " +
			"A new version voids the approvals given so far."},
		patch, s.patchCandidate)
	addTool(s, &mcp.Tool{Name: "delete_candidate", Annotations: proposing,
		Description: "Propose deleting a published skill, as a candidate that a person must approve and publish. " + scopeNote},
		limits{"name": nameLimits, "message": strLen(1, maxMessageLen)}, s.deleteCandidate)
}

// scopeNote tells an agent which skills it manages; the tools that change skills end with it.
const scopeNote = "An agent manages only the skills in the agents' scope (see get_mode's agent_scope): skills whose names match its globs (by default learned-*), " +
	"skills whose SKILL.md frontmatter has metadata.managed-by: skillgit, and the new skills it creates itself, which get that mark. " +
	"A change to any other skill (a person's skill, or any skill pack's skill) always waits for a person, whatever its risk; " +
	"adding managed-by in a new version does not bring a published skill into the scope."

// withLimits merges limit sets.
func withLimits(sets ...limits) limits {
	out := limits{}
	for _, l := range sets {
		for k, v := range l {
			out[k] = v
		}
	}
	return out
}

type createIn struct {
	Name        string   `json:"name,omitempty" jsonschema:"the skill's name: lowercase letters, digits and hyphens; with description and body"`
	Description string   `json:"description,omitempty" jsonschema:"what the skill does and when to use it; with name and body"`
	Body        string   `json:"body,omitempty" jsonschema:"the SKILL.md's Markdown after the frontmatter; with name and description"`
	Files       []fileIn `json:"files,omitempty" jsonschema:"the whole skill folder including SKILL.md, instead of name, description and body"`
	Message     string   `json:"message,omitempty" jsonschema:"why the change is proposed, for the reviewer"`
}

func (s *Server) createCandidate(r *lifecycle.Repo, in createIn) (actionOut, error) {
	f, name, err := createFolder(r, in)
	if err != nil {
		return actionOut{}, err
	}
	res, err := r.Propose(lifecycle.ProposeOptions{ActOptions: s.act, Target: name, Message: in.Message,
		Source: f.mapFS(name), SourceDir: name, SourceLabel: name})
	if err != nil {
		return actionOut{}, actionError(res, err)
	}
	return withOverlaps(actionResult(r, res), res), nil
}

// createFolder builds the skill folder that create_candidate proposes, and its name.
func createFolder(r *lifecycle.Repo, in createIn) (folder, string, error) {
	fields := in.Name != "" || in.Description != "" || in.Body != ""
	switch {
	case fields && in.Files != nil:
		return nil, "", errors.New("give either name, description and body, or files, not both")
	case in.Files != nil:
		return filesFolder(r, in.Files)
	case !fields:
		return nil, "", errors.New("give name, description and body for a SKILL.md, or files for a whole skill folder")
	}
	if err := requireFields(map[string]string{"name": in.Name, "description": in.Description, "body": in.Body}); err != nil {
		return nil, "", err
	}
	if err := catalog.CheckSkillName(in.Name); err != nil {
		return nil, "", inputError("name", "%v", err)
	}
	if err := checkBody(in.Body); err != nil {
		return nil, "", err
	}
	return fieldsFolder(r, in.Name, in.Description, in.Body)
}

// requireFields names the first empty one of the fields that go together.
func requireFields(fields map[string]string) error {
	for _, k := range []string{"name", "description", "body"} {
		if strings.TrimSpace(fields[k]) == "" {
			return inputError(k, "is missing or blank; name, description and body go together")
		}
	}
	return nil
}

// fieldsFolder builds a skill folder from name, description and body: a new one, or the
// published one with its SKILL.md rewritten.
func fieldsFolder(r *lifecycle.Repo, name, description, body string) (folder, string, error) {
	base, err := publishedFolder(r, name)
	if err != nil {
		return nil, "", err
	}
	if base == nil {
		data, err := newSkillMD(name, description, body)
		return folder{catalog.FileName: file{data: data}}, name, err
	}
	data, err := replaceBody(base[catalog.FileName].data, description, body)
	if err != nil {
		return nil, "", err
	}
	base[catalog.FileName] = file{data: data, exec: base[catalog.FileName].exec}
	return base, name, nil
}

// filesFolder builds a skill folder from files, keeping the execute bits of the published
// version's files.
func filesFolder(r *lifecycle.Repo, files []fileIn) (folder, string, error) {
	f, err := checkFiles(files)
	if err != nil {
		return nil, "", err
	}
	name, err := f.skillName()
	if err != nil {
		return nil, "", err
	}
	base, err := publishedFolder(r, name)
	if err != nil {
		return nil, "", err
	}
	f.keepExec(base)
	return f, name, nil
}

// publishedFolder reads the published skill name into memory; nil when there is none.
func publishedFolder(r *lifecycle.Repo, name string) (folder, error) {
	pub := r.Published()
	sk, err := pub.Find(name)
	if errors.Is(err, lifecycle.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	fsys, _, err := pub.SkillFS(sk)
	if err != nil {
		return nil, err
	}
	return readFolder(fsys)
}

type deleteIn struct {
	Name    string `json:"name" jsonschema:"the published skill to delete"`
	Message string `json:"message" jsonschema:"why it should go, for the reviewer"`
}

func (s *Server) deleteCandidate(r *lifecycle.Repo, in deleteIn) (actionOut, error) {
	res, err := r.Propose(lifecycle.ProposeOptions{ActOptions: s.act, Target: in.Name, Delete: true, Message: in.Message})
	if err != nil {
		return actionOut{}, actionError(res, err)
	}
	return actionResult(r, res), nil
}
