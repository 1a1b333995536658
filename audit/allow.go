package audit

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// Allow accepts one finding, named by its fingerprint, for a reason.
type Allow struct {
	Fingerprint string `yaml:"fingerprint"`
	// Rule, if set, must also match the finding's rule id.
	Rule   string `yaml:"rule,omitempty"`
	Reason string `yaml:"reason"`
}

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
//	  - fingerprint: 3f2a...
//	    rule: SG-EXE-005
//	    reason: the official installer of our build tool
//
// Every entry needs a fingerprint and a reason; unknown keys are errors.
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
		return nil, fmt.Errorf("audit-allow.yaml: %w; the file holds only `entries:` with fingerprint, rule and reason", err)
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
func entryLines(root *yaml.Node) []int {
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	m := root.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "entries" {
			var lines []int
			for _, e := range m.Content[i+1].Content {
				lines = append(lines, e.Line)
			}
			return lines
		}
	}
	return nil
}

// reason returns why f is accepted, or "" when it is not. A nil list
// accepts nothing.
func (al *AllowList) reason(f Finding) string {
	if al == nil {
		return ""
	}
	for _, e := range al.Entries {
		if e.Fingerprint == f.Fingerprint && (e.Rule == "" || e.Rule == f.RuleID) {
			return e.Reason
		}
	}
	return ""
}
