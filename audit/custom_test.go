package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

const teamRules = `rules:
  - id: TEAM-NET-001
    severity: high
    title: Internal host
    help: Skills must not name hosts of the internal network; use the public gateway.
    pattern: '(?i)\binternal\.corp\.example\b'
    keywords: [corp.example]
    examples:
      fire: ["curl https://INTERNAL.corp.example/api"]
      pass: ["curl https://api.example.com", "see corp.example.org"]
  - id: TEAM-SH-002
    severity: medium
    title: Deploy script
    help: Scripts must not deploy.
    pattern: 'deploy\s+--prod'
    files: ["scripts/*"]
    examples:
      fire: ["deploy --prod"]
`

func mustCustom(t *testing.T, data string) *CustomRules {
	t.Helper()
	c, err := ParseCustomRules([]byte(data))
	if err != nil {
		t.Fatalf("ParseCustomRules: %v", err)
	}
	return c
}

func customFinding(rep *Report, id string) (Finding, bool) {
	for _, f := range rep.Findings {
		if f.RuleID == id {
			return f, true
		}
	}
	return Finding{}, false
}

func TestCustomRuleFires(t *testing.T) {
	custom := mustCustom(t, teamRules)
	skill := fstest.MapFS{
		"SKILL.md":          {Data: []byte(front + "Fetch from https://internal.corp.example/v1 first.\nThen deploy --prod.\n")},
		"scripts/deploy.sh": {Data: []byte("#!/bin/sh\ndeploy --prod\n")},
	}
	rep := scanMap(t, skill, Options{Skill: "tools", Custom: custom})
	f, ok := customFinding(rep, "TEAM-NET-001")
	if !ok {
		t.Fatalf("no TEAM-NET-001 finding in %+v", rep.Findings)
	}
	if f.Severity != High || f.File != "SKILL.md" || f.Line == 0 || f.Fingerprint == "" || !strings.Contains(f.Message, "Internal host") {
		t.Errorf("finding = %+v", f)
	}
	if rep.Risk != RiskHigh {
		t.Errorf("risk = %v, want high", rep.Risk)
	}
	var files []string
	for _, f := range rep.Findings {
		if f.RuleID == "TEAM-SH-002" {
			files = append(files, f.File)
		}
	}
	if fmt.Sprint(files) != "[scripts/deploy.sh]" {
		t.Errorf("TEAM-SH-002 fired in %v, want only scripts/deploy.sh (its files glob)", files)
	}
	if _, ok := customFinding(scanMap(t, skill, Options{Skill: "tools"}), "TEAM-NET-001"); ok {
		t.Error("a custom rule fired without Options.Custom")
	}

	allow := &AllowList{Entries: []Allow{{Fingerprint: f.Fingerprint, Rule: f.RuleID, Reason: "the gateway is down"}}}
	rep = scanMap(t, skill, Options{Skill: "tools", Custom: custom, Allow: allow})
	if g, _ := customFinding(rep, "TEAM-NET-001"); g.Suppressed != "the gateway is down" {
		t.Errorf("the allow list did not accept the custom finding: %+v", g)
	}
}

func TestCustomRuleKeywordsGate(t *testing.T) {
	custom := mustCustom(t, `rules:
  - id: TEAM-X-001
    severity: low
    title: Token
    help: No tokens.
    pattern: 'tok_[0-9]+'
    keywords: [billing]
    examples:
      fire: ["billing tok_123"]
      pass: ["tok_123 alone"]
`)
	if _, ok := customFinding(scanMap(t, skillMD("tok_42 here\n"), Options{Custom: custom}), "TEAM-X-001"); ok {
		t.Error("the rule ran on a text without its keyword")
	}
	if _, ok := customFinding(scanMap(t, skillMD("BILLING uses tok_42\n"), Options{Custom: custom}), "TEAM-X-001"); !ok {
		t.Error("the rule did not fire on a text with its keyword in another case")
	}
}

func TestCustomRuleOutputs(t *testing.T) {
	custom := mustCustom(t, teamRules)
	rep := scanMap(t, skillMD("Use https://internal.corp.example now.\n"), Options{Skill: "net", Custom: custom})
	skills := []SkillReport{{Name: "net", Path: "skills/net", Report: rep}}
	for _, format := range []Format{FormatText, FormatJSON, FormatMarkdown, FormatSARIF} {
		var b bytes.Buffer
		if err := Write(&b, format, skills, WriteOptions{Custom: custom}); err != nil {
			t.Fatalf("%v: %v", format, err)
		}
		if !strings.Contains(b.String(), "TEAM-NET-001") {
			t.Errorf("%v output lacks the rule id:\n%s", format, b.String())
		}
	}
	for _, c := range []*CustomRules{custom, nil} {
		var b bytes.Buffer
		if err := WriteSARIF(&b, skills, WriteOptions{Custom: c}); err != nil {
			t.Fatal(err)
		}
		var log struct {
			Runs []struct {
				Tool struct {
					Driver struct {
						Rules []struct {
							ID               string
							ShortDescription struct{ Text string }
							FullDescription  struct{ Text string }
							Properties       struct {
								SecuritySeverity string `json:"security-severity"`
								Tags             []string
							}
						}
					}
				}
				Results []struct {
					RuleID string
					Level  string
				}
			}
		}
		if err := json.Unmarshal(b.Bytes(), &log); err != nil {
			t.Fatal(err)
		}
		rules := log.Runs[0].Tool.Driver.Rules
		if len(rules) != 1 || rules[0].ID != "TEAM-NET-001" || !strings.Contains(rules[0].FullDescription.Text, "public gateway") ||
			rules[0].Properties.SecuritySeverity != securitySeverity(High) {
			t.Errorf("custom %v: SARIF rules = %+v", c != nil, rules)
		}
		if c != nil && rules[0].ShortDescription.Text != "Internal host" {
			t.Errorf("SARIF rule title = %q", rules[0].ShortDescription.Text)
		}
		if res := log.Runs[0].Results; len(res) != 1 || res[0].RuleID != "TEAM-NET-001" || res[0].Level != "error" {
			t.Errorf("SARIF results = %+v", res)
		}
	}
}

func TestCustomRulesHash(t *testing.T) {
	a := mustCustom(t, teamRules)
	if PolicyHashWith(nil, nil, nil) != PolicyHash(nil, nil) {
		t.Error("without rules the policy hash changed")
	}
	with := PolicyHashWith(nil, nil, a)
	if with == PolicyHash(nil, nil) {
		t.Error("rules do not change the policy hash")
	}
	if again := PolicyHashWith(nil, nil, mustCustom(t, "# a comment\n"+teamRules)); again != with {
		t.Error("a comment changed the hash of the rules")
	}
	changed := mustCustom(t, strings.Replace(teamRules, "severity: high", "severity: critical", 1))
	if PolicyHashWith(nil, nil, changed) == with {
		t.Error("a change of severity kept the hash")
	}
	c := &Cache{Dir: t.TempDir()}
	if err := c.Put("tree", with, "", cachedReport()); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get("tree", with, ""); !ok {
		t.Fatal("cache missed its entry")
	}
	if _, ok := c.Get("tree", PolicyHashWith(nil, nil, changed), ""); ok {
		t.Error("cache hit under changed rules")
	}
}

func TestCustomRulesRefused(t *testing.T) {
	rule := func(fields string) string {
		return "rules:\n  - id: TEAM-A-001\n    severity: high\n    title: T\n    help: H\n" + fields
	}
	tests := []struct{ name, data, want string }{
		{"does not compile", rule("    pattern: 'a(b'\n    examples: {fire: [ab]}\n"), "TEAM-A-001 (line 2): pattern does not compile"},
		{"no fire example", rule("    pattern: ab\n    examples: {pass: [cd]}\n"), "TEAM-A-001 (line 2): examples.fire is empty"},
		{"fire example missed", rule("    pattern: ab\n    examples: {fire: [ab, xy]}\n"), `fire example 2 "xy" does not fire`},
		{"pass example fires", rule("    pattern: ab\n    examples: {fire: [ab], pass: [cd, xaby]}\n"), `pass example 2 "xaby" fires`},
		{"keyword hides fire", rule("    pattern: ab\n    keywords: [zz]\n    examples: {fire: [ab]}\n"), `fire example 1 "ab" does not fire`},
		{"matches empty", rule("    pattern: 'a*'\n    examples: {fire: [a]}\n"), "matches empty text"},
		{"too large", rule("    pattern: '[a-z]{1,1000}x[a-z]{1,1000}'\n    examples: {fire: [ax]}\n"), "instructions"},
		{"long pattern", rule("    pattern: '" + strings.Repeat("a", maxCustomPattern+1) + "'\n    examples: {fire: [a]}\n"), "longer than 1024 bytes"},
		{"no pattern", rule("    examples: {fire: [a]}\n"), "pattern is required"},
		{"bad severity", strings.Replace(rule("    pattern: ab\n    examples: {fire: [ab]}\n"), "high", "info", 1), `severity "info"`},
		{"no title", strings.Replace(rule("    pattern: ab\n    examples: {fire: [ab]}\n"), "title: T", "title: ''", 1), "title and help are required"},
		{"bad id", strings.Replace(rule("    pattern: ab\n    examples: {fire: [ab]}\n"), "TEAM-A-001", "SG-INJ-001", 1), `id "SG-INJ-001" must be TEAM-`},
		{"bad glob", rule("    pattern: ab\n    files: ['[']\n    examples: {fire: [ab]}\n"), "files glob"},
		{"unknown key", rule("    pattern: ab\n    severty: low\n    examples: {fire: [ab]}\n"), "field severty not found"},
		{"twice", rule("    pattern: ab\n    examples: {fire: [ab]}\n") + "  - id: TEAM-A-001\n    severity: low\n    title: T\n    help: H\n    pattern: cd\n    examples: {fire: [cd]}\n", "TEAM-A-001 (line 8): the id is used twice"},
		{"too many", "rules:\n" + strings.Repeat("  - id: TEAM-A-001\n", maxCustomRules+1), "more than the 64 allowed"},
		{"too big", "rules: []\n" + strings.Repeat("#", maxCustomFile), "larger than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCustomRules([]byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ParseCustomRules = %v, %v; want an error with %q", c, err, tt.want)
			}
		})
	}
}

func TestCustomRulesTotalBound(t *testing.T) {
	var b strings.Builder
	b.WriteString("rules:\n")
	for i := range maxCustomRules {
		fmt.Fprintf(&b, "  - id: TEAM-B-%03d\n    severity: low\n    title: T\n    help: H\n    pattern: '(?:[a-z]{1,10}q){1,2}'\n    examples: {fire: [aq]}\n", i)
	}
	_, err := ParseCustomRules([]byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than %d instructions; simplify or merge rules", maxCustomProgs)) {
		t.Fatalf("ParseCustomRules = %v; want the total bound refused", err)
	}
}

func TestCustomRulesEmpty(t *testing.T) {
	for _, data := range []string{"", "  \n", "rules: []\n"} {
		c, err := ParseCustomRules([]byte(data))
		if err != nil || c.Len() != 0 || c.Hash() != "" {
			t.Errorf("ParseCustomRules(%q) = %v rules, hash %q, %v", data, c.Len(), c.Hash(), err)
		}
	}
	if got := mustCustom(t, teamRules).Rules(); len(got) != 2 || got[0].ID != "TEAM-NET-001" || got[1].Severity != Medium {
		t.Errorf("Rules() = %+v", got)
	}
}
