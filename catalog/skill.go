package catalog

import (
	"fmt"
	"path"
)

// FileName is the name of the file that makes a folder a skill.
const FileName = "SKILL.md"

// MaxSkillFileSize is the largest SKILL.md the package reads, in bytes.
// A bigger file is reported by its size and never read whole.
const MaxSkillFileSize = 1 << 20

// Limits of the Agent Skills specification, counted in characters (runes).
const (
	MaxNameLength          = 64
	MaxDescriptionLength   = 1024
	MaxCompatibilityLength = 500
)

// Mode selects how strictly a SKILL.md is validated.
type Mode int

const (
	// Strict applies the rules of the Agent Skills reference validator:
	// any rule break is an error and the skill does not load.
	Strict Mode = iota
	// Lenient loads what coding agents load: a name that differs from its
	// folder, over-long fields, unknown keys and an upper-case name are
	// warnings, while a skill without a description or with unreadable
	// frontmatter is skipped.
	Lenient
)

// String returns "strict" or "lenient".
func (m Mode) String() string {
	if m == Lenient {
		return "lenient"
	}
	return "strict"
}

// Skill is one parsed skill.
type Skill struct {
	Name          string
	Description   string
	License       string
	Compatibility string
	// AllowedTools is the allowed-tools value; a YAML list is joined with spaces.
	AllowedTools string
	// Metadata is the metadata mapping. Skills read together may share one
	// map when their metadata is the same, so it is never modified.
	Metadata map[string]string
	// Dir is the slash-separated path of the skill folder relative to the
	// root of the file system it was read from, such as "skills/review/code-quality".
	Dir string
	// Body is the Markdown after the frontmatter, or "" when only the
	// frontmatter was read.
	Body string

	// nameLine is the line of the name value, so that later problems about
	// the name (such as a duplicate) can point at it.
	nameLine int
}

// File returns the slash-separated path of the skill's SKILL.md.
func (s *Skill) File() string {
	return path.Join(s.Dir, FileName)
}

// Problem is one thing wrong with a skill or with the layout around it.
type Problem struct {
	// File is the SKILL.md the problem is about, or the folder when there
	// is no readable SKILL.md.
	File string
	// Line is the 1-based line in File, or 0 when no line applies.
	Line int
	// Message says what is wrong and how to fix it.
	Message string
	// Warning reports that the skill still loads despite the problem.
	Warning bool
	// Object is the id of a git object that could not be read, when that
	// is the problem: then the repository is damaged, not the skill, and
	// the problem goes away once the object is restored.
	Object string
}

// String formats the problem as "file:line: message", with "warning: "
// before the message of a warning and without the line when it is 0.
func (p Problem) String() string {
	loc := p.File
	if p.Line > 0 {
		loc = fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	if p.Warning {
		return loc + ": warning: " + p.Message
	}
	return loc + ": " + p.Message
}

// Error returns the same text as String, so that a Problem can be used as an error.
func (p Problem) Error() string {
	return p.String()
}
