package audit

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path"
	"strings"
)

const (
	sarifSchemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	sarifToolURI   = "https://github.com/skillgit/skillgit"
	// sarifFingerprint names the fingerprint in partialFingerprints; the
	// version suffix changes if the fingerprint's recipe ever does.
	sarifFingerprint = "skillgitFingerprint/v1"
	// sarifSrcRoot marks URIs relative to the repository root.
	sarifSrcRoot = "%SRCROOT%"
)

// WriteSARIF writes skills as a SARIF 2.1.0 log with one run, the form
// GitHub code scanning uploads. The rules that fired are described with
// their help and a security-severity; each result locates its finding by
// the file's path from the repository root (the skill's path joined with
// the finding's file), carries the finding's fingerprint in
// partialFingerprints, tells in properties whether the finding is new,
// and lists an acceptance (from the allow list or an approval) as an
// external suppression with its reason and who accepted it.
// Columns count Unicode code points.
func WriteSARIF(w io.Writer, skills []SkillReport, o WriteOptions) error {
	rules := newSARIFRules(skills, o.Custom)
	results := []sarifResult{}
	for _, s := range skills {
		for _, f := range findingsOf(s) {
			results = append(results, sarifResultOf(s, f, rules.index[f.RuleID]))
		}
	}
	run := sarifRun{
		Tool:            sarifTool{Driver: sarifDriverOf(o.Version, rules.list)},
		Results:         results,
		ColumnKind:      "unicodeCodePoints",
		RedactionTokens: []string{redacted},
		Properties:      sarifRunProps(skills, o),
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(sarifLog{Schema: sarifSchemaURI, Version: "2.1.0", Runs: []sarifRun{run}}); err != nil {
		return fmt.Errorf("write SARIF report: %w", err)
	}
	return nil
}

var semverRe = lazy(`^[0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$`)

func sarifDriverOf(version string, rules []sarifRule) sarifDriver {
	d := sarifDriver{
		Name: "skillgit", InformationURI: sarifToolURI, Version: version, Rules: rules,
		Properties: map[string]any{"ruleset": RulesetVersion},
	}
	if v := strings.TrimPrefix(version, "v"); semverRe.MatchString(v) {
		d.SemanticVersion = v
	}
	return d
}

func sarifRunProps(skills []SkillReport, o WriteOptions) map[string]any {
	p := map[string]any{
		"risk":    Overall(skills).String(),
		"verdict": Judge(skills, o.FailOn).key(),
		"fail_on": o.FailOn.String(),
	}
	if o.Title != "" {
		p["title"] = o.Title
	}
	return p
}

func sarifResultOf(s SkillReport, f Finding, ruleIndex int) sarifResult {
	r := sarifResult{
		RuleID:    f.RuleID,
		RuleIndex: ruleIndex,
		Level:     sarifLevel(f.Severity),
		Message:   sarifText{Text: sarifMessage(f.Message)},
		Locations: []sarifLocation{{PhysicalLocation: sarifPhysicalOf(s.Path, f)}},
		Properties: sarifResultProps{
			New: f.New, Skill: s.Name, Severity: f.Severity.String(), Snippet: f.Snippet, Decoded: f.Decoded,
			Count: f.Count,
		},
	}
	if f.Fingerprint != "" {
		r.PartialFingerprints = map[string]string{sarifFingerprint: f.Fingerprint}
	}
	if s.Base != "" {
		r.BaselineState = "unchanged"
		if f.New {
			r.BaselineState = "new"
		}
	}
	if f.Suppressed != "" {
		r.Suppressions = []sarifSuppression{sarifSuppressionOf(f)}
	}
	return r
}

// sarifSuppressionOf records an acceptance: from the allow list or an
// approval, both outside the skill, with who accepted it when known.
func sarifSuppressionOf(f Finding) sarifSuppression {
	sup := sarifSuppression{Kind: "external", Status: "accepted", Justification: f.Suppressed}
	props := map[string]string{}
	if f.SuppressedBy != "" {
		props["acceptedBy"] = f.SuppressedBy
	}
	if f.SuppressedSource != "" {
		props["source"] = f.SuppressedSource
	}
	if len(props) > 0 {
		sup.Properties = props
	}
	return sup
}

func sarifPhysicalOf(skillPath string, f Finding) sarifPhysical {
	p := sarifPhysical{ArtifactLocation: sarifArtifactOf(skillPath, f.File)}
	if f.Line > 0 {
		p.Region = &sarifRegion{StartLine: f.Line, StartColumn: max(f.Column, 0)}
	}
	return p
}

// sarifArtifactOf returns the location of a skill's file: a URI relative
// to the repository root, or a file URI when the skill's path is
// absolute. Characters that a URI cannot hold are percent-encoded.
func sarifArtifactOf(skillPath, file string) sarifArtifact {
	p := path.Join(skillPath, file)
	if path.IsAbs(p) {
		return sarifArtifact{URI: (&url.URL{Scheme: "file", Path: p}).String()}
	}
	return sarifArtifact{URI: (&url.URL{Path: p}).String(), URIBaseID: sarifSrcRoot}
}

// sarifMessage escapes square brackets, which SARIF viewers read as
// embedded links in plain-text messages; a message quotes the skill.
func sarifMessage(s string) string {
	return strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`).Replace(s)
}

func sarifLevel(s Severity) string {
	switch {
	case s >= High:
		return "error"
	case s == Medium:
		return "warning"
	}
	return "note"
}

// securitySeverity places a severity on the 0–10 scale GitHub code
// scanning reads: over 9 is critical, 7 to 8.9 high, 4 to 6.9 medium,
// below 4 low.
func securitySeverity(s Severity) string {
	switch s {
	case Critical:
		return "9.5"
	case High:
		return "8.0"
	case Medium:
		return "5.5"
	case Low:
		return "3.0"
	}
	return "1.0"
}
