package audit

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// sarifRules describes the rules that fired in a run, ordered by id, and
// maps each id to its index for results' ruleIndex. Only rules that fired
// are listed: a log of a clean run stays small.
type sarifRules struct {
	list  []sarifRule
	index map[string]int
}

func newSARIFRules(skills []SkillReport, custom *CustomRules) sarifRules {
	seen := map[string]Finding{}
	for _, s := range skills {
		for _, f := range findingsOf(s) {
			if _, ok := seen[f.RuleID]; !ok {
				seen[f.RuleID] = f
			}
		}
	}
	ids := make([]string, 0, len(seen))
	for id := range seen {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	rs := sarifRules{list: []sarifRule{}, index: map[string]int{}}
	for i, id := range ids {
		rs.list = append(rs.list, sarifRuleFor(id, seen[id], custom))
		rs.index[id] = i
	}
	return rs
}

// sarifRuleFor describes the rule of finding f: one of custom, or else
// as sarifRuleOf does. A repository's rule custom does not hold (the run's
// rules were not passed on) is described by the finding's message.
func sarifRuleFor(id string, f Finding, custom *CustomRules) sarifRule {
	r := custom.rule(id)
	if r == nil && strings.HasPrefix(id, CustomPrefix) {
		r = &Rule{ID: id, Severity: f.Severity, Category: "custom", Title: id, Help: f.Message}
	}
	if r == nil {
		return sarifRuleOf(id, f.Severity)
	}
	return sarifRuleDesc(r)
}

// sarifRuleOf describes the rule id; a finding of a rule the engine does
// not know (an old cache entry, say) gets a description from its id and
// the severity it was found at.
func sarifRuleOf(id string, found Severity) sarifRule {
	r, ok := ruleByID[id]
	if !ok {
		r = &Rule{ID: id, Severity: found, Title: id, Help: "Rule " + id + " is not part of this version of the audit."}
	}
	return sarifRuleDesc(r)
}

// sarifRuleDesc is the SARIF description of r.
func sarifRuleDesc(r *Rule) sarifRule {
	tags := []string{"security"}
	if r.Category != "" {
		tags = append(tags, r.Category)
	}
	return sarifRule{
		ID:                   r.ID,
		Name:                 ruleName(r.Title),
		ShortDescription:     sarifText{Text: r.Title},
		FullDescription:      sarifText{Text: r.Help},
		Help:                 sarifHelp{Text: r.Help, Markdown: ruleHelpMarkdown(r)},
		DefaultConfiguration: sarifConfig{Level: sarifLevel(r.Severity)},
		Properties:           sarifRuleProps{SecuritySeverity: securitySeverity(r.Severity), Tags: tags},
	}
}

func ruleHelpMarkdown(r *Rule) string {
	category := ""
	if r.Category != "" {
		category = ", category " + mdText(r.Category)
	}
	return fmt.Sprintf("**%s**\n\n%s\n\nRule %s, severity %s%s.",
		mdText(r.Title), mdText(r.Help), codeSpan(r.ID), r.Severity, category)
}

// ruleName turns a rule's title into the camel-case name SARIF viewers
// show as an identifier, such as "AWSAccessKey" for "AWS access key".
func ruleName(title string) string {
	var b strings.Builder
	for _, word := range strings.FieldsFunc(title, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		rs := []rune(word)
		b.WriteRune(unicode.ToUpper(rs[0]))
		b.WriteString(string(rs[1:]))
	}
	return b.String()
}
