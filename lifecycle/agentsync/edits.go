package agentsync

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/targetdir"
)

// baseSearchLimit bounds how many commits of the publish branch are searched for the version
// an edited skill was installed from.
const baseSearchLimit = 2000

// Proposal is one edited skill turned into a candidate, or why it was not.
type Proposal struct {
	// Skill is the skill's name; Path its edited folder.
	Skill, Path string
	// Result is the candidate proposed; nil when Reason says why none was.
	Result *lifecycle.Result
	// Base is the publish-branch commit the candidate is built on: the one the skill was
	// installed from.
	Base string
	// Outdated says the channel published another version since: the candidate must be
	// rebased before it can be published.
	Outdated bool
	// Reason says why no candidate was proposed.
	Reason string
}

// ProposeEdits turns every skill edited in the targets of req since skillgit installed it
// into a candidate built on the publish-branch commit it was installed from, so that a
// publish merges it with what was published since instead of reverting that. Each candidate
// is audited and handled by the mode like any proposal. A skill edited in several targets is
// proposed from the first. The error joins the failures of the skills not proposed. When the
// skill repository is named by URL, nothing is proposed: each edited skill is returned with
// the reason, and the error says where to propose them from.
func ProposeEdits(req Request, act lifecycle.ActOptions, message string) ([]Proposal, error) {
	st, err := Status(req)
	if err != nil {
		return nil, err
	}
	edited := editedSkills(st)
	if len(edited) == 0 {
		return nil, nil
	}
	r, src, err := openSource(req)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if r.url != "" {
		return r.notFromClone(edited)
	}
	var out []Proposal
	var errs []error
	for _, s := range edited {
		p, err := r.proposeEdit(src, s, act, message)
		if err != nil {
			p.Reason = err.Error()
			errs = append(errs, fmt.Errorf("%s: %w", s.Name, err))
		}
		out = append(out, p)
	}
	return out, errors.Join(errs...)
}

// editedSkills are the skills edited in the targets of st, each once, from the first target
// that holds it edited.
func editedSkills(st *StatusReport) []SkillStatus {
	seen := map[string]bool{}
	var out []SkillStatus
	for _, t := range st.Targets {
		for _, s := range t.Skills {
			if s.State == targetdir.StateEdited && !seen[s.Name] {
				seen[s.Name] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// notFromClone reports the edited skills as not proposed: the skill repository is read from
// a cached clone, where a candidate would reach no one.
func (r *repo) notFromClone(edited []SkillStatus) ([]Proposal, error) {
	out := make([]Proposal, len(edited))
	names := make([]string, len(edited))
	for i, s := range edited {
		out[i] = Proposal{Skill: s.Name, Path: s.Path, Outdated: s.Outdated,
			Reason: "the skill repository is named by URL and read from a cached clone; propose it from a clone of " + r.url}
		names[i] = s.Name
	}
	noun := "edited skills"
	if len(edited) == 1 {
		noun = "edited skill"
	}
	return out, fmt.Errorf("%s: %d %s not proposed (%s): the skill repository %s is read from a cached clone, where a candidate would reach no one; in a clone of it (`git clone %s`), run `skillgit sync --project %s --propose-edits`, then `skillgit push`",
		r.syncPath, len(edited), noun, strings.Join(names, ", "), r.url, r.url, r.project)
}

// proposeEdit proposes the edited skill s on the commit it was installed from.
func (r *repo) proposeEdit(src *source, s SkillStatus, act lifecycle.ActOptions, message string) (Proposal, error) {
	p := Proposal{Skill: s.Name, Path: s.Path, Outdated: s.Outdated}
	if st, err := os.Lstat(s.Path); err != nil || st.Mode()&fs.ModeSymlink != 0 || !st.IsDir() {
		return p, fmt.Errorf("%s: not a folder of its own (installed with --symlink?); propose it with `skillgit propose --from DIR`", s.Path)
	}
	base, err := r.installedCommit(src, s)
	if err != nil {
		return p, err
	}
	p.Base = base.String()
	if message == "" {
		message = fmt.Sprintf("Edit of %s made in %s.", s.Name, s.Path)
	}
	p.Result, err = r.Propose(lifecycle.ProposeOptions{ActOptions: act, Target: s.Name, From: s.Path, Base: base, Message: message})
	return p, err
}

// installedCommit finds the commit of the publish branch whose folder of skill s was the
// version the manifest records as installed.
func (r *repo) installedCommit(src *source, s SkillStatus) (gitstore.Hash, error) {
	raw, err := hex.DecodeString(s.Installed)
	if err != nil || len(raw) != len(gitstore.ZeroHash) {
		return gitstore.ZeroHash, fmt.Errorf("the manifest records no git version it was installed from; propose it with `skillgit propose --from %s`", s.Path)
	}
	var tree gitstore.Hash
	copy(tree[:], raw)
	dir := path.Join(r.Config().SkillsDir, s.Name)
	if sk := src.loaded[s.Name]; sk != nil {
		dir = sk.Dir
	}
	base, err := r.PublishedCommitOf(dir, tree, baseSearchLimit)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	if base.IsZero() {
		return gitstore.ZeroHash, fmt.Errorf("the version installed (%s) is not among the last %d commits of the publish branch at %s; compare it with the published skill and propose it with `skillgit propose --from %s`",
			s.Installed, baseSearchLimit, dir, s.Path)
	}
	return base, nil
}
