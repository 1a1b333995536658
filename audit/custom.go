package audit

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"regexp"
	"regexp/syntax"
	"strings"

	"gopkg.in/yaml.v3"
)

// CustomPrefix starts the id of every rule a repository adds, so that its rules never take
// the id of a rule of the audit, today's or a later release's.
const CustomPrefix = "TEAM-"

// Bounds of a rules file. Each rule may run on every text the audit reads, so they bound the
// work a rules file can ask for: Go's regular expressions run in time linear in the text, but
// times the size of the compiled pattern in the worst case (a megabyte costs about a second
// per 200 instructions), so the total of those sizes is bounded. A literal word or keyword
// keeps a rule far below that: the search skips to where the word occurs.
const (
	maxCustomFile     = 256 << 10
	maxCustomRules    = 64
	maxCustomPattern  = 1024 // bytes of one pattern
	maxCustomProg     = 250  // instructions of one compiled pattern
	maxCustomProgs    = 1000 // instructions of all patterns
	maxCustomKeywords = 32
	maxCustomFiles    = 16
	maxCustomExamples = 32   // examples of each kind in one rule
	maxCustomExample  = 4096 // bytes of one example
	maxCustomText     = 4096 // bytes of a title or help
	maxCustomID       = 64
)

// CustomRules are the audit rules a repository adds in its policy (.skillgit/audit-rules.yaml),
// compiled and checked against their examples. A nil *CustomRules holds no rule.
type CustomRules struct {
	rules []*customRule
	hash  string
}

// customRule is one rule of a rules file, ready to run.
type customRule struct {
	rule     *Rule
	keywords [][]byte // folded to lowercase ASCII; a text must hold one of them, when there are any
	files    []string // globs of the paths it applies to; empty for every file
}

// customFile is the layout of a rules file.
type customFile struct {
	Rules []customEntry `yaml:"rules"`
}

type customEntry struct {
	ID       string   `yaml:"id"`
	Severity string   `yaml:"severity"`
	Title    string   `yaml:"title"`
	Help     string   `yaml:"help"`
	Pattern  string   `yaml:"pattern"`
	Keywords []string `yaml:"keywords"`
	Files    []string `yaml:"files"`
	Examples struct {
		Fire []string `yaml:"fire"`
		Pass []string `yaml:"pass"`
	} `yaml:"examples"`
}

// ParseCustomRules reads a rules file:
//
//	rules:
//	  - id: TEAM-NET-001
//	    severity: high
//	    title: Internal host
//	    help: Skills must not name hosts of the internal network; use the public gateway.
//	    pattern: '(?i)\binternal\.corp\.example\b'
//	    keywords: [internal.corp]
//	    files: ["*.md", "scripts/*"]
//	    examples:
//	      fire: ["curl https://internal.corp.example/api"]
//	      pass: ["curl https://api.example.com"]
//
// A rule that does not compile, lacks a fire example, misses one of its fire examples or fires
// on one of its pass examples is refused; every refusal names the rule and what to fix.
func ParseCustomRules(data []byte) (*CustomRules, error) {
	if len(data) > maxCustomFile {
		return nil, fmt.Errorf("audit-rules.yaml: larger than %d bytes; split out what is not a rule", maxCustomFile)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("audit-rules.yaml: %w", err)
	}
	var f customFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("audit-rules.yaml: %w; the file holds only `rules:`, each with id, severity, title, help, pattern, keywords, files and examples", err)
	}
	if len(f.Rules) > maxCustomRules {
		return nil, fmt.Errorf("audit-rules.yaml: %d rules, more than the %d allowed; merge rules with alternatives in one pattern", len(f.Rules), maxCustomRules)
	}
	return buildCustomRules(f.Rules, listLines(&root, "rules"))
}

// buildCustomRules compiles and checks the entries, reporting every refusal at once.
func buildCustomRules(entries []customEntry, lines []int) (*CustomRules, error) {
	c := &CustomRules{}
	var errs []error
	seen := map[string]bool{}
	insts := 0
	for i, e := range entries {
		where := fmt.Sprintf("audit-rules.yaml: rule %d", i+1)
		if e.ID != "" {
			where = fmt.Sprintf("audit-rules.yaml: rule %s", e.ID)
		}
		if i < len(lines) {
			where += fmt.Sprintf(" (line %d)", lines[i])
		}
		if seen[e.ID] && e.ID != "" {
			errs = append(errs, fmt.Errorf("%s: the id is used twice; give each rule its own", where))
			continue
		}
		seen[e.ID] = true
		cr, n, err := e.build()
		if err == nil && insts+n > maxCustomProgs {
			err = fmt.Errorf("the patterns together compile to more than %d instructions; simplify or merge rules", maxCustomProgs)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", where, err))
			continue
		}
		insts += n
		c.rules = append(c.rules, cr)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	c.hash = c.contentHash()
	return c, nil
}

// build checks an entry and compiles it; n is the size of its compiled pattern.
func (e customEntry) build() (*customRule, int, error) {
	sev, err := e.check()
	if err != nil {
		return nil, 0, err
	}
	re, n, err := compileCustom(e.Pattern)
	if err != nil {
		return nil, 0, err
	}
	r := &Rule{ID: e.ID, Severity: sev, Category: "custom", Title: e.Title, Help: e.Help,
		Keywords: e.Keywords, pattern: e.Pattern, exact: true, message: e.Title + ": " + e.Help,
		fire: e.Examples.Fire, pass: e.Examples.Pass}
	r.pat = &rulePattern{re: re}
	r.pat.once.Do(func() {}) // compiled already: compiled() must not compile it again
	cr := &customRule{rule: r, files: e.Files}
	for _, k := range e.Keywords {
		cr.keywords = append(cr.keywords, []byte(foldASCII(k)))
	}
	return cr, n, cr.checkExamples()
}

// check validates the fields of an entry other than its pattern and examples' outcome.
func (e customEntry) check() (Severity, error) {
	switch {
	case !strings.HasPrefix(e.ID, CustomPrefix) || !customIDRe.MatchString(e.ID) || len(e.ID) > maxCustomID:
		return 0, fmt.Errorf("id %q must be %s followed by capital letters, digits and dashes, such as %sNET-001", e.ID, CustomPrefix, CustomPrefix)
	case ruleByID[e.ID] != nil:
		return 0, fmt.Errorf("id %q is a rule of the audit; pick another", e.ID)
	case strings.TrimSpace(e.Title) == "" || strings.TrimSpace(e.Help) == "":
		return 0, errors.New("title and help are required; say what the rule catches and how to fix it")
	case len(e.Title) > maxCustomText || len(e.Help) > maxCustomText:
		return 0, fmt.Errorf("title and help are limited to %d bytes each", maxCustomText)
	case len(e.Keywords) > maxCustomKeywords:
		return 0, fmt.Errorf("%d keywords, more than the %d allowed", len(e.Keywords), maxCustomKeywords)
	case len(e.Files) > maxCustomFiles:
		return 0, fmt.Errorf("%d files globs, more than the %d allowed", len(e.Files), maxCustomFiles)
	case len(e.Examples.Fire) == 0:
		return 0, errors.New("examples.fire is empty; give at least one text the rule must find")
	case len(e.Examples.Fire) > maxCustomExamples || len(e.Examples.Pass) > maxCustomExamples:
		return 0, fmt.Errorf("more than %d examples of one kind", maxCustomExamples)
	}
	sev, err := parseCustomSeverity(e.Severity)
	if err != nil {
		return 0, err
	}
	for _, k := range e.Keywords {
		if strings.TrimSpace(k) == "" {
			return 0, errors.New("a keyword is empty; remove it")
		}
	}
	for _, g := range e.Files {
		if _, err := path.Match(g, ""); err != nil || g == "" {
			return 0, fmt.Errorf("files glob %q is not a valid pattern, such as \"*.md\" or \"scripts/*\"", g)
		}
	}
	for _, ex := range append(e.Examples.Fire, e.Examples.Pass...) {
		if len(ex) > maxCustomExample {
			return 0, fmt.Errorf("an example is longer than %d bytes", maxCustomExample)
		}
	}
	return sev, nil
}

var customIDRe = lazy(`^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+$`)

// parseCustomSeverity accepts the severities a finding can block at: info is not one.
func parseCustomSeverity(s string) (Severity, error) {
	sev, err := ParseSeverity(s)
	if err != nil || sev < Low {
		return 0, fmt.Errorf("severity %q is not one of low, medium, high, critical", s)
	}
	return sev, nil
}

// compileCustom compiles a pattern of a rules file within the bounds, and returns the number
// of instructions it compiles to. A pattern that matches empty text is refused: it would
// match everywhere.
func compileCustom(p string) (*regexp.Regexp, int, error) {
	switch {
	case strings.TrimSpace(p) == "":
		return nil, 0, errors.New("pattern is required")
	case len(p) > maxCustomPattern:
		return nil, 0, fmt.Errorf("pattern is longer than %d bytes", maxCustomPattern)
	}
	tree, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return nil, 0, fmt.Errorf("pattern does not compile: %w", err)
	}
	prog, err := syntax.Compile(tree.Simplify())
	if err != nil {
		return nil, 0, fmt.Errorf("pattern does not compile: %w", err)
	}
	if len(prog.Inst) > maxCustomProg {
		return nil, 0, fmt.Errorf("pattern compiles to %d instructions, more than %d; shorten its repetitions and alternatives", len(prog.Inst), maxCustomProg)
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, 0, fmt.Errorf("pattern does not compile: %w", err)
	}
	if re.MatchString("") {
		return nil, 0, errors.New("pattern matches empty text, so it would fire everywhere; make it match something")
	}
	return re, len(prog.Inst), nil
}

// checkExamples runs the rule on each of its examples as on a text of a skill.
func (cr *customRule) checkExamples() error {
	for i, ex := range cr.rule.fire {
		if !cr.fires([]byte(ex)) {
			return fmt.Errorf("fire example %d %q does not fire; fix the pattern or the example", i+1, clip(ex))
		}
	}
	for i, ex := range cr.rule.pass {
		if cr.fires([]byte(ex)) {
			return fmt.Errorf("pass example %d %q fires; fix the pattern or the example", i+1, clip(ex))
		}
	}
	return nil
}

// fires reports whether the rule finds something in text.
func (cr *customRule) fires(text []byte) bool {
	s := &scanner{}
	return len(s.customRuleHits(cr, &unit{text: text, orig: text}, nil)) > 0
}

// clip shortens an example quoted in an error.
func clip(s string) string {
	const n = 80
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "..."
}

// listLines returns the line of each item of the list under key of a document's top mapping,
// for error messages.
func listLines(root *yaml.Node, key string) []int {
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	m := root.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			var lines []int
			for _, e := range m.Content[i+1].Content {
				lines = append(lines, e.Line)
			}
			return lines
		}
	}
	return nil
}
