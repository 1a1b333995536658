package audit

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
)

const (
	// markdownLimit is the most a GitHub comment holds, in characters;
	// the writer counts bytes, which are never fewer.
	markdownLimit = 65536
	// markdownReserve keeps room for the truncation notice and the marker.
	markdownReserve = 1024
	// markdownMarker lets a CI job find and update its earlier comment.
	markdownMarker = "<!-- skillgit-audit -->\n"
)

// WriteMarkdown writes skills as a pull-request comment. Its first line
// is the verdict (PASS, NEEDS REVIEW or BLOCKED) with the overall risk and
// the fail_on threshold; a table summarises each skill; then come the
// findings of each skill, most severe first, each marked new or
// pre-existing. Text from the skill is escaped, shown in code spans where
// it could form a mention or a link, and the comment is cut, with a
// notice, before it passes GitHub's limit of 65,536 characters.
func WriteMarkdown(w io.Writer, skills []SkillReport, o WriteOptions) error {
	mb := &markdownBuilder{budget: markdownLimit - markdownReserve, total: countSkills(skills).all()}
	mb.add(markdownHead(skills, o))
	mb.add(markdownTableHead)
	for _, s := range skills {
		mb.add(markdownRow(s, o.FailOn))
	}
	for _, s := range skills {
		mb.skillSection(s, o.FailOn)
	}
	if _, err := io.WriteString(w, mb.finish()); err != nil {
		return fmt.Errorf("write Markdown report: %w", err)
	}
	return nil
}

// markdownBuilder assembles the comment from blocks, each added whole or,
// once one no longer fits, not at all.
type markdownBuilder struct {
	b      strings.Builder
	budget int
	cut    bool
	shown  int // findings written
	total  int
}

func (mb *markdownBuilder) add(block string) bool {
	if mb.cut || mb.b.Len()+len(block) > mb.budget {
		mb.cut = true
		return false
	}
	mb.b.WriteString(block)
	return true
}

func (mb *markdownBuilder) finish() string {
	if mb.cut {
		fmt.Fprintf(&mb.b, "\n**Truncated:** this comment shows %d of %d findings; a GitHub comment holds at most "+
			"65,536 characters. Run `skillgit audit` on the same skills for the full report.\n", mb.shown, mb.total)
	}
	mb.b.WriteString("\n" + markdownMarker)
	return mb.b.String()
}

func markdownHead(skills []SkillReport, o WriteOptions) string {
	v := Judge(skills, o.FailOn)
	head := fmt.Sprintf("**%s**: overall risk **%s**, fail_on **%s**", v, Overall(skills), o.FailOn)
	if o.Title != "" {
		head += ", skillgit audit of " + mdText(o.Title)
	}
	if len(skills) == 0 {
		return head + "\n\nNo skills to audit: none found or changed.\n\n"
	}
	return fmt.Sprintf("%s\n\n%s: %s.\n\n", head, plural(len(skills), "skill"), countSkills(skills).summary())
}

const markdownTableHead = "| Skill | Verdict | Risk | Findings | New | Suppressed |\n| --- | --- | --- | --- | ---: | ---: |\n"

func markdownRow(s SkillReport, failOn Risk) string {
	c := countFindings(findingsOf(s))
	return fmt.Sprintf("| %s | %s | %s | %s | %d | %d |\n", cellCode(s.Name),
		judgeReport(s.Report, failOn), riskOfSkill(s), c.severities(), c.fresh, c.suppressed)
}

func (mb *markdownBuilder) skillSection(s SkillReport, failOn Risk) {
	fs := findingsOf(s)
	if len(fs) == 0 {
		return
	}
	where := "Path " + codeSpan(s.Path)
	if s.Base != "" {
		where += ", compared with " + codeSpan(s.Base)
	}
	mb.add(fmt.Sprintf("\n### %s: %s, risk %s\n\n%s.\n\n", codeSpan(s.Name),
		judgeReport(s.Report, failOn), riskOfSkill(s), where))
	for _, f := range reviewOrder(fs) {
		if mb.add(markdownFinding(f)) {
			mb.shown++
		}
	}
}

// reviewOrder sorts a copy of fs the way a reviewer reads them: open
// before suppressed, most severe first, new before pre-existing, and
// otherwise in file order; a cut comment then loses the least.
func reviewOrder(fs []Finding) []Finding {
	out := slices.Clone(fs)
	slices.SortStableFunc(out, func(a, b Finding) int {
		return cmp.Or(
			cmpBool(a.Suppressed != "", b.Suppressed != ""),
			cmp.Compare(b.Severity, a.Severity),
			cmpBool(!a.New, !b.New),
		)
	})
	return out
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

func markdownFinding(f Finding) string {
	state := "new"
	if !f.New {
		state = "pre-existing"
	}
	if f.Suppressed != "" {
		state += ", suppressed"
	}
	var b strings.Builder
	where := "the skill"
	if loc := location(f); loc != "" {
		where = codeSpan(loc)
	}
	fmt.Fprintf(&b, "- **%s** (%s) %s in %s: %s\n", strings.ToUpper(f.Severity.String()), state,
		codeSpan(f.RuleID), where, mdText(f.Message))
	markdownDetail(&b, "fingerprint", codeSpan(f.Fingerprint))
	markdownDetail(&b, "matches", mdText(matchesLine(f)))
	markdownDetail(&b, "snippet", codeSpan(f.Snippet))
	markdownDetail(&b, "decoded", codeSpan(f.Decoded))
	if f.Suppressed != "" {
		markdownDetail(&b, "suppressed", mdText(suppressionLine(f)))
	}
	return b.String()
}

func markdownDetail(b *strings.Builder, label, value string) {
	if value != "" {
		fmt.Fprintf(b, "  - %s: %s\n", label, value)
	}
}
