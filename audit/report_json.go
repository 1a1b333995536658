package audit

import (
	"encoding/json"
	"fmt"
	"io"
)

// The JSON output is a contract with scripts and agents: fields are
// added, never renamed or removed. It has its own structs so that the
// engine's types can change without changing it.

// jsonFinding is a finding in the JSON output.
type jsonFinding struct {
	Skill            string `json:"skill,omitempty"`
	RuleID           string `json:"rule_id"`
	Severity         string `json:"severity"`
	File             string `json:"file"`
	Line             int    `json:"line"`
	Column           int    `json:"column"`
	Message          string `json:"message"`
	Snippet          string `json:"snippet,omitempty"`
	Decoded          string `json:"decoded,omitempty"`
	Fingerprint      string `json:"fingerprint"`
	New              bool   `json:"new"`
	Suppressed       bool   `json:"suppressed"`
	SuppressedReason string `json:"suppressed_reason,omitempty"`
	// SuppressedBy and SuppressedSource say who accepted the finding and
	// where: "allow-list" or "approval".
	SuppressedBy     string `json:"suppressed_by,omitempty"`
	SuppressedSource string `json:"suppressed_source,omitempty"`
	// Count is how often the rule matched in the file; Locations are the
	// first places.
	Count     int            `json:"count"`
	Locations []jsonLocation `json:"locations,omitempty"`
}

// jsonLocation is a place in a file.
type jsonLocation struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// jsonSkill is one skill's result; at the top level when the run covers
// one skill, inside jsonRun otherwise.
type jsonSkill struct {
	Name     string        `json:"name"`
	Path     string        `json:"path"`
	Base     string        `json:"base,omitempty"`
	Risk     string        `json:"risk"`
	Verdict  string        `json:"verdict"`
	FailOn   string        `json:"fail_on,omitempty"`
	Title    string        `json:"title,omitempty"`
	Findings []jsonFinding `json:"findings"`
	Files    int           `json:"files"`
	Bytes    int64         `json:"bytes"`
	Ruleset  int           `json:"ruleset,omitempty"`
	Parsers  *Parsers      `json:"parsers,omitempty"`
}

// jsonRun is the result of a run over several skills.
type jsonRun struct {
	Title    string        `json:"title,omitempty"`
	Risk     string        `json:"risk"`
	Verdict  string        `json:"verdict"`
	FailOn   string        `json:"fail_on"`
	Findings []jsonFinding `json:"findings"`
	Skills   []jsonSkill   `json:"skills"`
	Ruleset  int           `json:"ruleset"`
	Parsers  Parsers       `json:"parsers"`
}

// WriteJSON writes skills as one JSON object with snake_case fields. For
// one skill the object is that skill's result: name, path, risk,
// verdict, findings, files, bytes and ruleset. For any other number it
// holds the overall risk and verdict, every finding with a "skill" field
// naming its skill, and a "skills" list with each skill's own result.
func WriteJSON(w io.Writer, skills []SkillReport, o WriteOptions) error {
	var v any
	if len(skills) == 1 {
		one := newJSONSkill(skills[0], o.FailOn)
		parsers := CodeParsers()
		one.FailOn, one.Title, one.Ruleset, one.Parsers = o.FailOn.String(), o.Title, RulesetVersion, &parsers
		v = one
	} else {
		v = newJSONRun(skills, o)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write JSON report: %w", err)
	}
	return nil
}

func newJSONRun(skills []SkillReport, o WriteOptions) jsonRun {
	run := jsonRun{
		Title: o.Title, Risk: Overall(skills).String(), Verdict: Judge(skills, o.FailOn).key(),
		FailOn: o.FailOn.String(), Findings: []jsonFinding{}, Skills: []jsonSkill{}, Ruleset: RulesetVersion,
		Parsers: CodeParsers(),
	}
	for _, s := range skills {
		run.Skills = append(run.Skills, newJSONSkill(s, o.FailOn))
		for _, f := range findingsOf(s) {
			jf := newJSONFinding(f)
			jf.Skill = s.Name
			run.Findings = append(run.Findings, jf)
		}
	}
	return run
}

func newJSONSkill(s SkillReport, failOn Risk) jsonSkill {
	js := jsonSkill{
		Name: s.Name, Path: s.Path, Base: s.Base, Risk: riskOfSkill(s).String(),
		Verdict: judgeReport(s.Report, failOn).key(), Findings: []jsonFinding{},
	}
	if s.Report != nil {
		js.Files, js.Bytes = s.Report.Files, s.Report.Bytes
	}
	for _, f := range findingsOf(s) {
		js.Findings = append(js.Findings, newJSONFinding(f))
	}
	return js
}

func newJSONFinding(f Finding) jsonFinding {
	return jsonFinding{
		RuleID: f.RuleID, Severity: f.Severity.String(), File: f.File, Line: f.Line, Column: f.Column,
		Message: f.Message, Snippet: f.Snippet, Decoded: f.Decoded, Fingerprint: f.Fingerprint,
		New: f.New, Suppressed: f.Suppressed != "", SuppressedReason: f.Suppressed,
		SuppressedBy: f.SuppressedBy, SuppressedSource: f.SuppressedSource,
		Count: max(f.Count, 1), Locations: jsonLocations(f.Locations),
	}
}

func jsonLocations(ls []Location) []jsonLocation {
	if len(ls) == 0 {
		return nil
	}
	out := make([]jsonLocation, len(ls))
	for i, l := range ls {
		out[i] = jsonLocation{Line: l.Line, Column: l.Column}
	}
	return out
}
