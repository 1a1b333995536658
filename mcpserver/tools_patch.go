package mcpserver

import (
	"errors"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/lifecycle"
)

type patchIn struct {
	ID          string   `json:"id" jsonschema:"the candidate to revise, such as pdf-tools-7f3a, or the name of a skill with exactly one open candidate"`
	Message     string   `json:"message" jsonschema:"the review feedback this version answers"`
	Description string   `json:"description,omitempty" jsonschema:"a new description for its SKILL.md"`
	Body        string   `json:"body,omitempty" jsonschema:"a new Markdown body for its SKILL.md, after the frontmatter"`
	Files       []fileIn `json:"files,omitempty" jsonschema:"the whole new skill folder including SKILL.md, instead of body and description"`
}

func (s *Server) patchCandidate(r *lifecycle.Repo, in patchIn) (actionOut, error) {
	c, err := r.Book().Candidate(in.ID)
	if err != nil {
		return actionOut{}, err
	}
	f, err := patchFolder(r, c, in)
	if err != nil {
		return actionOut{}, err
	}
	res, err := r.Revise(in.ID, lifecycle.ProposeOptions{ActOptions: s.act, Message: in.Message,
		Source: f.mapFS(c.Skill), SourceDir: c.Skill, SourceLabel: c.Skill})
	if err != nil {
		return actionOut{}, actionError(res, err)
	}
	return withOverlaps(actionResult(r, res), res), nil
}

// patchFolder builds the candidate's new folder: the files sent, or its current folder with
// the SKILL.md's body or description replaced.
func patchFolder(r *lifecycle.Repo, c *lifecycle.Candidate, in patchIn) (folder, error) {
	fields := in.Body != "" || in.Description != ""
	switch {
	case fields && in.Files != nil:
		return nil, errors.New("give either body and/or description, or files, not both")
	case !fields && in.Files == nil:
		return nil, errors.New("give the new version: body and/or description, or files for the whole skill folder")
	}
	fsys, err := r.CandidateFS(c)
	if err != nil {
		return nil, err
	}
	base, err := readFolder(fsys)
	if err != nil {
		return nil, err
	}
	if in.Files != nil {
		f, err := checkFiles(in.Files)
		if err == nil {
			f.keepExec(base)
		}
		return f, err
	}
	if err := checkBody(in.Body); err != nil {
		return nil, err
	}
	data, err := replaceBody(base[catalog.FileName].data, in.Description, in.Body)
	if err != nil {
		return nil, err
	}
	base[catalog.FileName] = file{data: data, exec: base[catalog.FileName].exec}
	return base, nil
}
