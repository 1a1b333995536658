package audit

import (
	"fmt"
	"io"
	"strings"
)

// SkillReport is one skill's result inside a run that may cover several
// skills.
type SkillReport struct {
	// Name is the skill's name, normally its folder's base name.
	Name string
	// Path is the skill folder relative to the repository root, with
	// slashes, such as "skills/pdf-tools".
	Path string
	// Report is the skill's scan result; nil reads as a clean report.
	Report *Report
	// Base names the version the skill was compared with, such as "main"
	// or a commit id; empty when there was none.
	Base string
}

// Format names an output format of the audit reporters.
type Format int

// Output formats; the zero Format is FormatText.
const (
	FormatText Format = iota
	FormatJSON
	FormatSARIF
	FormatMarkdown
)

var formatNames = [...]string{FormatText: "text", FormatJSON: "json", FormatSARIF: "sarif", FormatMarkdown: "markdown"}

// String returns the name of f as ParseFormat accepts it, such as "sarif".
func (f Format) String() string {
	if f < FormatText || f > FormatMarkdown {
		return fmt.Sprintf("format(%d)", int(f))
	}
	return formatNames[f]
}

// ParseFormat returns the Format named by s, ignoring case; "md" is
// accepted for markdown.
func ParseFormat(s string) (Format, error) {
	if strings.EqualFold(s, "md") {
		return FormatMarkdown, nil
	}
	for f := FormatText; f <= FormatMarkdown; f++ {
		if strings.EqualFold(s, formatNames[f]) {
			return f, nil
		}
	}
	return 0, fmt.Errorf("format %q: unknown; use text, json, sarif or markdown", s)
}

// WriteOptions controls the reporters.
type WriteOptions struct {
	// Color adds terminal colors to the text format; the caller decides
	// it once from the terminal and NO_COLOR.
	Color bool
	// Version is the version of skillgit that ran the audit, reported
	// by SARIF; empty when unknown.
	Version string
	// FailOn is the risk at which a run is blocked. The zero value,
	// RiskLow, blocks on any finding that is not suppressed.
	FailOn Risk
	// Title says what was audited, such as "candidate pdf-tools-7f3a"
	// or "main..HEAD"; empty for none.
	Title string
	// Custom are the repository's rules the run used, so that SARIF describes the rules of
	// their findings; nil for none.
	Custom *CustomRules
}

// Write writes skills in format f.
func Write(w io.Writer, f Format, skills []SkillReport, o WriteOptions) error {
	switch f {
	case FormatText:
		return WriteText(w, skills, o)
	case FormatJSON:
		return WriteJSON(w, skills, o)
	case FormatSARIF:
		return WriteSARIF(w, skills, o)
	case FormatMarkdown:
		return WriteMarkdown(w, skills, o)
	}
	return fmt.Errorf("format %d: unknown; use text, json, sarif or markdown", int(f))
}

// Overall returns the highest risk of skills: the risk of the whole run.
func Overall(skills []SkillReport) Risk {
	r := RiskLow
	for _, s := range skills {
		if s.Report != nil {
			r = max(r, s.Report.Risk)
		}
	}
	return r
}

// Verdict is what a run means for the change it audited.
type Verdict int

// Verdicts from best to worst.
const (
	// VerdictPass means nothing needs a person's attention.
	VerdictPass Verdict = iota
	// VerdictReview means the risk is medium or more but below the
	// fail-on threshold: a person must approve the change.
	VerdictReview
	// VerdictBlocked means the risk reached the fail-on threshold.
	VerdictBlocked
)

var verdictNames = [...]string{VerdictPass: "PASS", VerdictReview: "NEEDS REVIEW", VerdictBlocked: "BLOCKED"}

// String returns the status word of v: "PASS", "NEEDS REVIEW" or "BLOCKED".
func (v Verdict) String() string {
	if v < VerdictPass || v > VerdictBlocked {
		return fmt.Sprintf("verdict(%d)", int(v))
	}
	return verdictNames[v]
}

// key returns v's name in machine-readable output, such as "needs_review".
func (v Verdict) key() string {
	return strings.ReplaceAll(strings.ToLower(v.String()), " ", "_")
}

// Judge returns the verdict on skills at the fail-on threshold failOn.
// Suppressed findings count for nothing, and a skill without other
// findings passes even when failOn is RiskLow.
func Judge(skills []SkillReport, failOn Risk) Verdict {
	v := VerdictPass
	for _, s := range skills {
		v = max(v, judgeReport(s.Report, failOn))
	}
	return v
}

func judgeReport(r *Report, failOn Risk) Verdict {
	if r == nil {
		return VerdictPass
	}
	c := countFindings(r.Findings)
	switch {
	case c.open > 0 && r.Risk >= failOn:
		return VerdictBlocked
	case r.Risk >= RiskMedium:
		return VerdictReview
	}
	return VerdictPass
}

// findingsOf returns the findings of s, nil for a missing report.
func findingsOf(s SkillReport) []Finding {
	if s.Report == nil {
		return nil
	}
	return s.Report.Findings
}

// riskOfSkill returns the risk of s, low for a missing report.
func riskOfSkill(s SkillReport) Risk {
	if s.Report == nil {
		return RiskLow
	}
	return s.Report.Risk
}
