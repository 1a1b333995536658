package audit

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestMDText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain words", "plain words"},
		{"*bold* _it_ ~x~", `\*bold\* \_it\_ \~x\~`},
		{"<!-- hidden --> <b>x</b>", `\<!-- hidden --\> \<b\>x\</b\>`},
		{"a | b", `a \| b`},
		{"[x](y) ![i](z)", `\[x\](y) !\[i\](z)`},
		{"$x$ &amp; \\", `\$x\$ \&amp; \\`},
		{"ping @octocat now", "ping `@octocat` now"},
		{"see https://evil.example/a?b", "see `https://evil.example/a?b`"},
		{"www.evil.example", "`www.evil.example`"},
		{"mail a@b.example", "mail `a@b.example`"},
		{"tick `x` here", "tick \\`x\\` here"},
		{"line\nbreak\tand\x1b[2J", `line break and\\x1b\[2J`},
		{"zero\u200bwidth", `zero\<U+200B\>width`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := mdText(tt.in); got != tt.want {
				t.Errorf("mdText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestCodeSpan(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"x", "`x`"},
		{"a `b` c", "``a `b` c``"},
		{"``x``", "``` ``x`` ```"},
		{"`", "`` ` ``"},
		{" both ", "`  both  `"},
		{" lead", "` lead`"},
		{"   ", "`   `"},
		{"<!-- c --> | x", "`<!-- c --> | x`"},
		{"two\nlines", "`two lines`"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := codeSpan(tt.in)
			if got != tt.want {
				t.Errorf("codeSpan(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if tt.in != "" && codeSpanContent(got) != cleanLine(tt.in) {
				t.Errorf("code span %q shows %q, want %q", got, codeSpanContent(got), cleanLine(tt.in))
			}
		})
	}
	if got := cellCode("a|b"); strings.Contains(got, "|") {
		t.Errorf("cellCode left a pipe: %q", got)
	}
}

// codeSpanContent returns what a CommonMark renderer shows for the code
// span s, which must be one whole span.
func codeSpanContent(s string) string {
	n := longestRun(s, '`')
	for n > 0 && !strings.HasPrefix(s, strings.Repeat("`", n)) {
		n--
	}
	inner := s[n : len(s)-n]
	if len(inner) >= 2 && inner[0] == ' ' && inner[len(inner)-1] == ' ' && strings.Trim(inner, " ") != "" {
		inner = inner[1 : len(inner)-1]
	}
	return inner
}

// plainViolation returns the first character of md outside code spans
// and backslash escapes that could start markup, a mention or a link;
// "" when there is none.
func plainViolation(md string) string {
	for i := 0; i < len(md); {
		switch c := md[i]; {
		case c == '\\' && i+1 < len(md) && isASCIIPunct(md[i+1]):
			i += 2
		case c == '`':
			n := runAt(md, i)
			end := closingRun(md, i+n, n)
			if end < 0 {
				return md[i:]
			}
			i = end + n
		case strings.IndexByte(mdSpecial, c) >= 0 || c == '@' || strings.HasPrefix(md[i:], "://") ||
			strings.HasPrefix(strings.ToLower(md[i:]), "www."):
			return md[i:]
		default:
			i++
		}
	}
	return ""
}

func isASCIIPunct(c byte) bool {
	return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}

func runAt(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] == '`' {
		n++
	}
	return n
}

// closingRun finds the next run of exactly n backticks from i.
func closingRun(s string, i, n int) int {
	for i < len(s) {
		if s[i] != '`' {
			i++
			continue
		}
		m := runAt(s, i)
		if m == n {
			return i
		}
		i += m
	}
	return -1
}

func FuzzMarkdownText(f *testing.F) {
	for _, s := range []string{"a *b* <c> @d https://e.example www.f `g` ``h`` | $i$ & \\", "\x1b[31m", "<!-- x -->", "` `", "@"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		md := mdText(s)
		if strings.ContainsAny(md, "\n\r") {
			t.Fatalf("mdText(%q) = %q spans lines", s, md)
		}
		if v := plainViolation(md); v != "" {
			t.Fatalf("mdText(%q) = %q leaves markup at %q", s, md, v)
		}
		if cs := codeSpan(s); cs != "" && codeSpanContent(cs) != cleanLine(s) {
			t.Fatalf("codeSpan(%q) = %q shows %q", s, cs, codeSpanContent(cs))
		}
	})
}

func TestMarkdownVerdictFirst(t *testing.T) {
	tests := []struct {
		name   string
		skills []SkillReport
		failOn Risk
		want   string
	}{
		{"pass", []SkillReport{skillWith(finding(Low, ""))}, RiskHigh, "**PASS**: overall risk **low**, fail_on **high**"},
		{"review", []SkillReport{skillWith(finding(Medium, ""))}, RiskHigh, "**NEEDS REVIEW**: overall risk **medium**, fail_on **high**"},
		{"blocked", []SkillReport{skillWith(finding(Medium, ""))}, RiskMedium, "**BLOCKED**: overall risk **medium**, fail_on **medium**"},
		{"no skills", nil, RiskHigh, "**PASS**: overall risk **low**, fail_on **high**"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteMarkdown(&buf, tt.skills, WriteOptions{FailOn: tt.failOn}); err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(buf.String(), "\n")
			if first != tt.want {
				t.Errorf("first line = %q, want %q", first, tt.want)
			}
		})
	}
}

// TestMarkdownGoldenIsInert checks the golden comment line by line: no
// markup from the skill survives outside code spans.
func TestMarkdownGoldenIsInert(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, goldenSkills(), WriteOptions{FailOn: RiskHigh, Title: "<b>@here</b>"}); err != nil {
		t.Fatal(err)
	}
	// The writer's own markup: bold, list and table syntax, the marker.
	own := regexp.MustCompile(`\*\*[A-Z ]+\*\*|\*\*[a-z]+\*\*|^\s*- |^\| | \| | \|$|^#+ |^<!-- skillgit-audit -->$|---:?|fail_on`)
	for i, line := range strings.Split(buf.String(), "\n") {
		if v := plainViolation(own.ReplaceAllString(line, " ")); v != "" {
			t.Errorf("line %d: markup from the skill at %q:\n%s", i+1, v, line)
		}
	}
}

func TestMarkdownTruncated(t *testing.T) {
	var fs []Finding
	for i := range 3000 {
		fs = append(fs, Finding{RuleID: "SG-HID-005", Severity: High, File: fmt.Sprintf("references/f%04d.md", i), Line: i + 1, Column: 1,
			Message: strings.Repeat("a long message | with <html> ", 4), Snippet: "<!-- " + strings.Repeat("x", 100) + " -->",
			Fingerprint: fmt.Sprintf("%032x", i), New: true})
	}
	skills := []SkillReport{{Name: "big", Path: "skills/big", Report: withRisk(&Report{Findings: fs})}}
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, skills, WriteOptions{FailOn: RiskHigh}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if n := utf8.RuneCountInString(out); n > markdownLimit {
		t.Errorf("comment has %d characters, over %d", n, markdownLimit)
	}
	shown := strings.Count(out, "\n- **HIGH**")
	notice := fmt.Sprintf("**Truncated:** this comment shows %d of 3000 findings", shown)
	if shown == 0 || shown >= 3000 || !strings.Contains(out, notice) {
		t.Errorf("want the notice %q for %d shown findings", notice, shown)
	}
	if !strings.HasPrefix(out, "**BLOCKED**") || !strings.HasSuffix(out, markdownMarker) {
		t.Errorf("cut comment lost its verdict or marker: starts %q, ends %q", out[:20], out[len(out)-40:])
	}
}

func TestMarkdownManySkillsTruncated(t *testing.T) {
	var skills []SkillReport
	for i := range 5000 {
		skills = append(skills, SkillReport{Name: fmt.Sprintf("skill-%04d", i), Path: "skills/x", Report: withRisk(&Report{})})
	}
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, skills, WriteOptions{FailOn: RiskHigh}); err != nil {
		t.Fatal(err)
	}
	if buf.Len() > markdownLimit || !strings.Contains(buf.String(), "**Truncated:**") {
		t.Errorf("a table of 5000 skills gave %d bytes without a cut", buf.Len())
	}
}
