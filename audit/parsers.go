package audit

import "github.com/skillgit/skillgit/audit/codeflow"

// Parsers says which languages this build of the audit reads as programs.
// Shell is always parsed; Python and JavaScript need the tree-sitter
// parsers, which need cgo. Without them those languages are read by the
// text rules alone, and every report says so.
type Parsers struct {
	Shell      bool   `json:"shell"`
	Python     bool   `json:"python"`
	JavaScript bool   `json:"javascript"`
	Note       string `json:"note,omitempty"`
}

// CodeParsers returns the parsers of this build.
func CodeParsers() Parsers {
	p := Parsers{Shell: true, Python: codeflow.Available(), JavaScript: codeflow.Available()}
	if !p.Python {
		p.Note = "Python and JavaScript were read by the text rules only: this skillgit was built without cgo, so its code parsers are missing; build it with CGO_ENABLED=1 for the flow rules (SG-EXF-025, SG-EXE-039, SG-EXE-040)"
	}
	return p
}

// rulesetKey identifies the rules that produced a result, for the caches: a build without
// the code parsers finds less, so its results are kept apart.
func rulesetKey() int {
	if codeflow.Available() {
		return RulesetVersion
	}
	return RulesetVersion + noParsersKey
}

// noParsersKey sets the results of a build without parsers apart from every ruleset's.
const noParsersKey = 1 << 20
