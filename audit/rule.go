package audit

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// RulesetVersion changes whenever a rule is added, removed or changed, so
// that cached audit results keyed by it are not reused across rule sets.
const RulesetVersion = 6

// Rule describes one check of the audit.
type Rule struct {
	// ID is stable across releases, such as "SG-INJ-001".
	ID       string
	Severity Severity
	// Category groups rules: structure, hidden, injection, credentials,
	// exfiltration, secrets, execution, skillgit, diff or combination.
	Category string
	// Title names what the rule catches in a few words.
	Title string
	// Help says what the rule catches, why it matters and how to fix it.
	Help string
	// Keywords are the case-insensitive words a text must contain before
	// the rule's pattern is tried; empty for rules that are not patterns.
	Keywords []string

	pattern  string       // regular expression, for pattern rules
	pat      *rulePattern // the pattern compiled, on first use; nil without a pattern
	anchored bool         // every match starts where a keyword starts
	exact    bool         // the pattern is case-sensitive: match the text as written
	needs    []string     // each entry lists "|"-separated words one of which the window must hold
	needAny  [][][]byte   // needs, split into words once
	message  string       // Title + ": " + Help, the message of a finding, made once
	kinds    fileKind     // files a pattern applies to; 0 means every text file
	span     int          // lines of context around a keyword hit
	reach    int          // bytes an anchored match may span; 0 means maxAnchor
	demote   bool         // a quoted example is demoted one level
	descOnly bool         // the pattern applies to the frontmatter description only
	parsed   bool         // judged on code read by its parser, which a build without cgo lacks
	tags     tag
	validate func(data []byte, loc []int) bool
	fire     []string // examples that must produce a finding of this rule
	pass     []string // realistic look-alikes that must not
}

// tag marks what a finding means to the combination rules.
type tag uint16

const (
	tagSource      tag = 1 << iota // reads credentials or the environment
	tagSink                        // sends data off the machine
	tagObfuscation                 // hides or encodes text
	tagExecution                   // runs code
	tagConcealment                 // hides what happens from the user
	tagDownload                    // fetches an executable
	tagExecBit                     // makes a file executable
	tagQuarantine                  // removes the OS download quarantine
	tagSecret                      // the match is a secret: redact it
)

// fileKind classifies text files for rules that apply to some kinds only.
type fileKind uint8

const (
	kindProse  fileKind = 1 << iota // Markdown and plain text
	kindScript                      // shell, Python, JavaScript, PowerShell ...
	kindMarkup                      // HTML, SVG, XML
	kindData                        // JSON, YAML, TOML and other config
)

var (
	ruleList []*Rule
	ruleByID = map[string]*Rule{}
)

func register(rules ...*Rule) {
	for _, r := range rules {
		if _, dup := ruleByID[r.ID]; dup {
			panic("audit: duplicate rule " + r.ID)
		}
		for _, n := range r.needs {
			var words [][]byte
			for w := range strings.SplitSeq(n, "|") {
				words = append(words, []byte(w))
			}
			r.needAny = append(r.needAny, words)
		}
		r.message = r.Title + ": " + r.Help
		if r.pattern != "" {
			r.pat = &rulePattern{}
		}
		ruleByID[r.ID] = r
		ruleList = append(ruleList, r)
	}
}

// Rules returns every rule of the audit, ordered by id.
func Rules() []Rule {
	out := make([]Rule, 0, len(ruleList))
	for _, r := range ruleList {
		c := *r
		c.Keywords = slices.Clone(r.Keywords)
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Rule) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// rulePattern is a rule's pattern compiled. Each rule compiles its pattern when the audit
// first needs it, not when skillgit starts nor all at once: compiling them all takes tens of
// milliseconds, and most audits try only some of the rules.
type rulePattern struct {
	once   sync.Once
	re     *regexp.Regexp
	anchor *regexp.Regexp // the pattern anchored at its start, for anchored rules
	starts *starts        // what every match begins with, when the pattern tells
}

// noPattern is what compiled returns for a rule without a pattern: nothing compiled.
var noPattern rulePattern

// compiled returns the rule's pattern compiled; empty for a rule without one.
func (r *Rule) compiled() *rulePattern {
	p := r.pat
	if p == nil {
		return &noPattern
	}
	p.once.Do(func() {
		p.re = compilePattern(r.pattern, r.exact)
		if r.anchored {
			p.anchor = compilePattern(`^(?:`+r.pattern+`)`, r.exact)
		} else {
			p.starts = newStarts(p.re)
		}
	})
	return p
}

// rule returns the registered rule with the given id; the ids used in code are fixed, so a
// missing one is a programming error caught by the tests.
func rule(id string) *Rule {
	r, ok := ruleByID[id]
	if !ok {
		panic("audit: unknown rule " + id)
	}
	return r
}

// compilePattern compiles a rule's pattern. Unless exact, the pattern is
// matched against text folded to lowercase ASCII, so it is folded too and
// its (?i) flags dropped: case-insensitive matching of alternations costs
// Go's regexp package a case fold per rune, which this avoids. Escapes
// such as \S keep their case.
func compilePattern(p string, exact bool) *regexp.Regexp {
	if exact {
		return regexp.MustCompile(p)
	}
	p = strings.ReplaceAll(p, "(?i)", "")
	p = strings.ReplaceAll(p, "(?i:", "(?:")
	b := []byte(p)
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' {
			i++
			continue
		}
		b[i] = lowerASCII(b[i])
	}
	return regexp.MustCompile(string(b))
}
