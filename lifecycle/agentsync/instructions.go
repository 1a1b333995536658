package agentsync

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/internal/atomicfile"
	"github.com/skillgit/skillgit/internal/boundedfile"
	"github.com/skillgit/skillgit/targetdir"
)

// maxInstructionsSize bounds how much of an agent instructions file is read.
const maxInstructionsSize = 1 << 20

// writeInstructions keeps the marked block of every agent instructions file of the request
// listing the skills the sync leaves installed.
func (r *repo) writeInstructions(src *source, req Request, rep *Report) error {
	for _, f := range req.AgentsMD {
		file := r.instructionsPath(f)
		if err := UpdateInstructions(file, installedEntries(src, rep, filepath.Dir(file)), req.DryRun); err != nil {
			return err
		}
		rep.Instructions = append(rep.Instructions, file)
	}
	return nil
}

// checkInstructions refuses, before anything is installed, an agent instructions file of the
// request that could not be kept.
func (r *repo) checkInstructions(req Request) error {
	for _, f := range req.AgentsMD {
		if err := UpdateInstructions(r.instructionsPath(f), nil, true); err != nil {
			return err
		}
	}
	return nil
}

// instructionsPath is the agent instructions file f; a relative one starts at the project.
func (r *repo) instructionsPath(f string) string {
	if filepath.IsAbs(f) {
		return f
	}
	return filepath.Join(r.projectRoot(), f)
}

// installedEntries lists each skill the report leaves installed once, at the first target
// that holds it, with the location of its SKILL.md relative to folder dir.
func installedEntries(src *source, rep *Report, dir string) []catalog.PromptEntry {
	seen := map[string]bool{}
	var out []catalog.PromptEntry
	for _, t := range rep.Targets {
		for _, it := range rep.Actions {
			if it.Target != t.Label || seen[it.Skill] || !installed(it) {
				continue
			}
			seen[it.Skill] = true
			e := catalog.PromptEntry{Name: it.Skill, Location: relLocation(dir, filepath.Join(it.Path, catalog.FileName))}
			if s := src.loaded[it.Skill]; s != nil {
				e.Description = s.Description
			}
			out = append(out, e)
		}
	}
	return out
}

// installed reports whether a sync's item leaves the skill in its target.
func installed(it Item) bool {
	switch it.Action {
	case targetdir.ActionInstall, targetdir.ActionUpdate, targetdir.ActionKeep, targetdir.ActionEdited:
		return true
	case targetdir.ActionSkip:
		if catalog.ValidateName(it.Skill) != nil {
			return false
		}
		st, err := os.Stat(filepath.Join(it.Path, catalog.FileName))
		return err == nil && st.Mode().IsRegular()
	}
	return false
}

// relLocation is file relative to dir, with slashes, or file itself when it has no
// relative path.
func relLocation(dir, file string) string {
	rel, err := filepath.Rel(dir, file)
	if err != nil {
		return file
	}
	return filepath.ToSlash(rel)
}

// UpdateInstructions writes the block listing entries between the markers of the agent
// instructions file, such as AGENTS.md or CLAUDE.md, creating the file if it is missing and
// keeping every byte outside the markers and the file's mode. A file that is a symbolic
// link, not a regular file, larger than 1 MiB, or whose markers are broken is refused. With
// dryRun the file is checked and nothing is written.
func UpdateInstructions(file string, entries []catalog.PromptEntry, dryRun bool) error {
	doc, mode, err := readKept(file, maxInstructionsSize, "an agent instructions file")
	if err != nil {
		return err
	}
	var block bytes.Buffer
	if err := targetdir.WriteInstructions(&block, entries); err != nil {
		return err
	}
	out, err := targetdir.SpliceInstructions(doc, block.Bytes())
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if dryRun || bytes.Equal(out, doc) && doc != nil {
		return nil
	}
	if err := atomicfile.Write(file, out, atomicfile.Options{Perm: mode, Sync: true}); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	return nil
}

// readKept reads a file that sync keeps, up to limit bytes, and its mode; a missing file is
// empty, with mode 0644. what names the kind of file in errors.
func readKept(file string, limit int64, what string) ([]byte, os.FileMode, error) {
	data, st, err := boundedfile.Read(file, limit)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, 0o644, nil
	case errors.Is(err, boundedfile.ErrNotRegular) && st.Mode()&fs.ModeSymlink != 0:
		return nil, 0, fmt.Errorf("%s: is a symbolic link; name the file itself", file)
	case errors.Is(err, boundedfile.ErrNotRegular):
		return nil, 0, fmt.Errorf("%s: not a regular file", file)
	case errors.Is(err, boundedfile.ErrTooLarge):
		return nil, 0, fmt.Errorf("%s: larger than %d MiB; %s that big is not kept by skillgit", file, limit>>20, what)
	case err != nil:
		return nil, 0, err
	}
	return data, st.Mode().Perm(), nil
}
