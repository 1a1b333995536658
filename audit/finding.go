package audit

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
)

// Finding is one thing a rule found in a skill.
type Finding struct {
	// RuleID names the rule, such as "SG-EXE-005"; see Rules.
	RuleID   string
	Severity Severity
	// File is the slash-separated path relative to the skill root.
	File string
	// Line and Column are 1-based; Column counts Unicode code points.
	// Both are 0 when the finding is not about a place in a text file.
	Line, Column int
	// Message says what was found and why it matters.
	Message string
	// Snippet is the matched text on one line, bounded in length, with
	// invisible characters spelled out and secrets redacted.
	Snippet string
	// Fingerprint identifies the finding across versions of the skill:
	// it depends on the skill's name, the file, the rule and the matched
	// content (for findings about a whole file, the file's bytes), not on
	// the line, so edits elsewhere in the file leave it unchanged while
	// the same content in another skill or changed content does not.
	Fingerprint string
	// Count is how many matches of the rule in the file the scanner
	// reported (it stops at 20 per rule in one text); one finding stands
	// for them all. It is at least 1.
	Count int
	// Locations are the first places of the matches (at most
	// MaxLocations), in file order; empty when the finding is not about
	// places in a text file.
	Locations []Location
	// New reports whether the base version lacked this finding; it is
	// true for every finding when there is no base version.
	New bool
	// Suppressed holds the reason the finding was accepted, from the
	// allow list or an approval, and is empty otherwise.
	Suppressed string
	// SuppressedBy names who accepted the finding, such as
	// "Ada Lovelace <ada@example.com>"; empty when unknown or not accepted.
	SuppressedBy string
	// SuppressedSource says where the acceptance came from: SourceAllowList
	// or SourceApproval; empty when the finding is not accepted.
	SuppressedSource string
	// Decoded shows hidden text the finding revealed (tag characters,
	// base64 and the like), redacted and bounded; empty when none.
	Decoded string
}

// Location is a place in a text file: 1-based line and column, the
// column counted in Unicode code points.
type Location struct {
	Line, Column int
}

// MaxLocations bounds the places one finding lists.
const MaxLocations = 5

// Report is the result of scanning one skill.
type Report struct {
	// Findings are sorted by file, line, column and rule.
	Findings []Finding
	// Risk is the highest tier of the unsuppressed findings.
	Risk Risk
	// Files and Bytes count what was read.
	Files int
	Bytes int64
}

// Stats counts the work of the text rules, to measure the prefilter.
type Stats struct {
	// RegexEvals counts regular expression evaluations.
	RegexEvals int64
	// PrefilterHits counts keyword hits of the prefilter.
	PrefilterHits int64
}

func compareFindings(a, b Finding) int {
	return cmp.Or(
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Column, b.Column),
		cmp.Compare(a.RuleID, b.RuleID),
		cmp.Compare(a.Fingerprint, b.Fingerprint),
	)
}

func sortFindings(fs []Finding) { slices.SortFunc(fs, compareFindings) }

// riskOf returns the highest tier of the unsuppressed findings.
func riskOf(fs []Finding) Risk {
	r := RiskLow
	for _, f := range fs {
		if f.Suppressed == "" {
			r = max(r, f.Severity.Risk())
		}
	}
	return r
}

// normalizeContent prepares matched text for fingerprinting: letter case
// and runs of white space do not change what a finding is about.
func normalizeContent(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// fingerprinter hands out fingerprints and numbers repeated occurrences of
// the same content, so two identical lines in a file stay distinct.
type fingerprinter map[string]int

func (fp fingerprinter) next(rule, file, content string) string {
	return fp.nextIn("", rule, file, content)
}

// nextIn is next for a finding of the named skill: the skill's name is
// part of the fingerprint, so an acceptance never carries to another skill.
func (fp fingerprinter) nextIn(skill, rule, file, content string) string {
	key := skill + "\x00" + rule + "\x00" + file + "\x00" + normalizeContent(content)
	n := fp[key]
	fp[key] = n + 1
	sum := sha256.Sum256([]byte(key + "\x00" + strconv.Itoa(n)))
	return hex.EncodeToString(sum[:16])
}
