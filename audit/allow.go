package audit

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// Allow accepts one finding, named by its fingerprint, for a reason.
// A critical finding is never accepted, whatever the list says.
type Allow struct {
	// Skill, if set, must match the name of the skill the finding is in.
	Skill string `yaml:"skill,omitempty"`
	// Path, if set, must match the finding's file, relative to the skill
	// folder, such as "scripts/build.sh".
	Path        string `yaml:"path,omitempty"`
	Fingerprint string `yaml:"fingerprint"`
	// Rule, if set, must also match the finding's rule id.
	Rule   string `yaml:"rule,omitempty"`
	Reason string `yaml:"reason"`
	// By names who accepted the finding; optional.
	By string `yaml:"by,omitempty"`
	// Source says where the entry comes from: SourceAllowList for the
	// repository's file, SourceApproval for an approval's acceptance.
	Source string `yaml:"-"`
}

// Where an acceptance comes from, as Finding.SuppressedSource reports it.
const (
	// SourceAllowList is the repository's allow-list file.
	SourceAllowList = "allow-list"
	// SourceApproval is an approval commit that accepted the finding.
	SourceApproval = "approval"
)

// AllowList is the repository's list of accepted findings, kept outside
// the skills (in .skillgit/audit-allow.yaml) so that a skill's author
// cannot accept their own findings.
type AllowList struct {
	Entries []Allow `yaml:"entries"`
}

const maxAllowFile = 1 << 20

// ParseAllowList parses an allow list file:
//
//	entries:
//	  - skill: build-tools
//	    path: SKILL.md
//	    rule: SG-EXE-005
//	    fingerprint: 3f2a...
//	    reason: the official installer of our build tool
//
// Every entry needs a fingerprint and a reason; skill, path, rule and by
// are optional, and when set must match the finding. Unknown keys are
// errors.
func ParseAllowList(data []byte) (*AllowList, error) {
	if len(data) > maxAllowFile {
		return nil, fmt.Errorf("audit-allow.yaml: larger than %d bytes; keep only accepted findings in it", maxAllowFile)
	}
	al := &AllowList{}
	if len(bytes.TrimSpace(data)) == 0 {
		return al, nil
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("audit-allow.yaml: %w", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(al); err != nil {
		return nil, fmt.Errorf("audit-allow.yaml: %w; the file holds only `entries:` with skill, path, rule, fingerprint, reason and by", err)
	}
	if err := al.check(entryLines(&root)); err != nil {
		return nil, err
	}
	return al, nil
}

func (al *AllowList) check(lines []int) error {
	var errs []error
	for i, e := range al.Entries {
		where := fmt.Sprintf("audit-allow.yaml: entry %d", i+1)
		if i < len(lines) {
			where += fmt.Sprintf(" (line %d)", lines[i])
		}
		switch {
		case strings.TrimSpace(e.Fingerprint) == "":
			errs = append(errs, fmt.Errorf("%s: fingerprint is required; copy it from the audit report", where))
		case strings.TrimSpace(e.Reason) == "":
			errs = append(errs, fmt.Errorf("%s: reason is required; say why the finding is accepted", where))
		}
	}
	return errors.Join(errs...)
}

// entryLines returns the line of each entry, for error messages.
func entryLines(root *yaml.Node) []int { return listLines(root, "entries") }

// Match returns the first entry that accepts f, found in the skill
// named skill. A nil list accepts nothing, and nothing accepts a
// critical finding.
func (al *AllowList) Match(skill string, f Finding) (Allow, bool) {
	if al == nil || f.Severity >= Critical {
		return Allow{}, false
	}
	for _, e := range al.Entries {
		if e.matches(skill, f) {
			return e, true
		}
	}
	return Allow{}, false
}

func (e Allow) matches(skill string, f Finding) bool {
	return e.Fingerprint == f.Fingerprint &&
		(e.Rule == "" || e.Rule == f.RuleID) &&
		(e.Skill == "" || e.Skill == skill) &&
		(e.Path == "" || e.Path == f.File)
}

// apply marks f suppressed when the list accepts it.
func (al *AllowList) apply(skill string, f *Finding) {
	e, ok := al.Match(skill, *f)
	if !ok {
		return
	}
	f.Suppressed, f.SuppressedBy, f.SuppressedSource = e.Reason, e.By, cmp.Or(e.Source, SourceAllowList)
}

// With returns a list holding al's entries followed by extra; al is not
// changed. It is how an approval's acceptances join the repository's list.
func (al *AllowList) With(extra ...Allow) *AllowList {
	if len(extra) == 0 {
		return al
	}
	out := &AllowList{}
	if al != nil {
		out.Entries = append(out.Entries, al.Entries...)
	}
	out.Entries = append(out.Entries, extra...)
	return out
}

// key identifies what an entry accepts, for merging lists without
// duplicates.
func (e Allow) key() string {
	return e.Fingerprint + "\x00" + e.Skill + "\x00" + e.Path + "\x00" + e.Rule
}

// Merge adds the entries al does not hold yet, in order, and returns how
// many it added.
func (al *AllowList) Merge(entries ...Allow) int {
	seen := map[string]bool{}
	for _, e := range al.Entries {
		seen[e.key()] = true
	}
	added := 0
	for _, e := range entries {
		if !seen[e.key()] {
			seen[e.key()] = true
			al.Entries = append(al.Entries, e)
			added++
		}
	}
	return added
}

// Marshal renders al in the format ParseAllowList reads. Comments of a
// file it was parsed from are not kept.
func (al *AllowList) Marshal() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("# Findings the audit accepts; see the README, section \"Accepting findings\".\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(al); err != nil {
		return nil, fmt.Errorf("audit-allow.yaml: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("audit-allow.yaml: %w", err)
	}
	return b.Bytes(), nil
}

// AllowEntries returns allow-list entries for the findings of skill that
// a list may accept: not critical and not accepted already. Each entry
// names the skill, path, rule and fingerprint, with reason.
func AllowEntries(skill string, findings []Finding, reason string) []Allow {
	var out []Allow
	for _, f := range findings {
		if f.Severity >= Critical || f.Suppressed != "" {
			continue
		}
		out = append(out, Allow{Skill: skill, Path: f.File, Rule: f.RuleID, Fingerprint: f.Fingerprint, Reason: reason})
	}
	return out
}
