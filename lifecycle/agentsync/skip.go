package agentsync

import (
	"errors"
	"path"
	"slices"
	"strings"

	"github.com/skillgit/skillgit/targetdir"
)

// Skip is a skill a sync left as it was: a copy already installed stays, with its manifest
// entry, and nothing is installed where there was none.
type Skip struct {
	// Skill is the skill's name.
	Skill string
	// Dir is the skill's folder in the published tree.
	Dir string
	// Reason says why, and what to do.
	Reason string
	// Refused is true when the policy or the audit refused the skill, false when git could
	// not read it.
	Refused bool
}

// ErrSkipped reports a sync that installed what it could and left some skills as they were;
// the report's Skipped says which, and why.
var ErrSkipped = errors.New("some skills were skipped")

// hold records that the skill in folder dir is left as installed, because of err; refused
// says the policy or the audit refused it. The first reason for a skill is kept.
func (src *source) hold(dir string, err error, refused bool) {
	name := path.Base(dir)
	if _, ok := src.held[name]; ok {
		return
	}
	src.held[name] = Skip{Skill: name, Dir: dir, Reason: err.Error(), Refused: refused}
	src.skills = slices.DeleteFunc(src.skills, func(s targetdir.Skill) bool { return s.Name == name })
}

// holds maps the names of the held skills to their reasons, for the plans.
func (src *source) holds() map[string]string {
	out := make(map[string]string, len(src.held))
	for name, s := range src.held {
		out[name] = s.Reason
	}
	return out
}

// holdIn makes every plan leave the held skills as they are, and lists them in the report.
func (src *source) holdIn(plans []*targetdir.Folder, rep *Report) {
	for _, p := range plans {
		if p == nil {
			continue
		}
		for name, s := range src.held {
			p.Hold(name, s.Reason)
		}
	}
	rep.Skipped = rep.Skipped[:0]
	for _, s := range src.held {
		rep.Skipped = append(rep.Skipped, s)
	}
	slices.SortFunc(rep.Skipped, func(a, b Skip) int { return strings.Compare(a.Skill, b.Skill) })
}

// finish adds ErrSkipped to the outcome of applying the plans when skills were held.
func finish(rep *Report, err error) error {
	if len(rep.Skipped) == 0 {
		return err
	}
	return errors.Join(err, ErrSkipped)
}

// IsPartial reports an outcome that still wrote what it could: nil, conflicts, skipped
// skills and differences left after a frozen sync, and any join of them. An error joined with them is not partial.
func IsPartial(err error) bool { return isPartial(err) }

// isPartial reports an outcome that still wrote what it could: conflicts and skipped skills.
func isPartial(err error) bool {
	if err == nil {
		return true
	}
	var joined interface{ Unwrap() []error }
	if errors.As(err, &joined) {
		for _, e := range joined.Unwrap() {
			if !isPartial(e) {
				return false
			}
		}
		return true
	}
	return errors.Is(err, ErrConflict) || errors.Is(err, ErrSkipped) || errors.Is(err, ErrFrozenDiffers)
}
