package catalog

import (
	"strings"
	"testing"
)

const file = "skills/pdf-tools/SKILL.md"

const unexpectedMsg = "; only name, description, license, compatibility, metadata and allowed-tools are allowed (move other data under metadata)"

func TestParseStrict(t *testing.T) {
	valid := &Skill{Name: "pdf-tools", Description: "Fill PDF forms.", Dir: "skills/pdf-tools", Body: "body\n"}
	tests := []struct {
		name  string
		data  []byte
		want  *Skill
		probs []Problem
	}{
		{
			name: "minimal valid",
			data: md("body\n", "name: pdf-tools", "description: Fill PDF forms."),
			want: valid,
		},
		{
			name: "every field",
			data: md("# PDF\n", "name: pdf-tools", "description: Fill PDF forms.", "license: Apache-2.0",
				"compatibility: needs poppler", "allowed-tools: Bash(pdftotext:*) Read", "metadata:", "  version: 1.0", "  author: ada"),
			want: &Skill{Name: "pdf-tools", Description: "Fill PDF forms.", License: "Apache-2.0", Compatibility: "needs poppler",
				AllowedTools: "Bash(pdftotext:*) Read", Metadata: map[string]string{"version": "1.0", "author": "ada"},
				Dir: "skills/pdf-tools", Body: "# PDF\n"},
		},
		{
			name: "allowed-tools as a list",
			data: md("", "name: pdf-tools", "description: Fill PDF forms.", "allowed-tools:", "  - Read", "  - Bash(git:*)"),
			want: &Skill{Name: "pdf-tools", Description: "Fill PDF forms.", AllowedTools: "Read Bash(git:*)", Dir: "skills/pdf-tools"},
		},
		{
			name:  "allowed-tools as a mapping",
			data:  md("", "name: pdf-tools", "description: Fill PDF forms.", "allowed-tools: {a: b}"),
			probs: []Problem{problem(file, 4, "allowed-tools must be a space-separated string or a list of strings, not a mapping")},
		},
		{
			name:  "allowed-tools list holding a list",
			data:  md("", "name: pdf-tools", "description: Fill PDF forms.", "allowed-tools:", "  - Read", "  - [a, b]"),
			probs: []Problem{problem(file, 6, "allowed-tools entries must be strings, not a list")},
		},
		{
			name: "quoted and block values",
			data: md("", `name: "pdf-tools"`, "description: >-", "  Fill PDF forms", "  quickly."),
			want: &Skill{Name: "pdf-tools", Description: "Fill PDF forms quickly.", Dir: "skills/pdf-tools"},
		},
		{
			name:  "no opening line",
			data:  []byte("name: pdf-tools\ndescription: x\n"),
			probs: []Problem{problem(file, 1, "file must start with a --- line that opens the YAML frontmatter; add ---, name and description lines, then ---")},
		},
		{
			name:  "blank line before the opening line",
			data:  []byte("\n---\nname: pdf-tools\ndescription: x\n---\n"),
			probs: []Problem{problem(file, 1, "file must start with a --- line that opens the YAML frontmatter; add ---, name and description lines, then ---")},
		},
		{
			name:  "never closed",
			data:  []byte("---\nname: pdf-tools\ndescription: x\n"),
			probs: []Problem{problem(file, 1, "frontmatter opened on line 1 is never closed; add a --- line after its last key")},
		},
		{
			name:  "empty file",
			data:  nil,
			probs: []Problem{problem(file, 1, "file must start with a --- line that opens the YAML frontmatter; add ---, name and description lines, then ---")},
		},
		{
			name:  "empty frontmatter",
			data:  []byte("---\n---\nbody\n"),
			probs: []Problem{problem(file, 1, "frontmatter is empty; add name and description keys")},
		},
		{
			name:  "frontmatter is a list",
			data:  md("", "- name", "- description"),
			probs: []Problem{problem(file, 2, "frontmatter must be a YAML mapping of keys to values, such as name: pdf-tools")},
		},
		{
			name:  "frontmatter is a scalar",
			data:  md("", "just text"),
			probs: []Problem{problem(file, 2, "frontmatter must be a YAML mapping of keys to values, such as name: pdf-tools")},
		},
		{
			name:  "invalid YAML",
			data:  md("", "name: pdf-tools", "description: a: b"),
			probs: []Problem{problem(file, 3, `frontmatter is not valid YAML: mapping values are not allowed in this context; fix the syntax (quote values that contain ": " or start with a special character)`)},
		},
		{
			name:  "unclosed flow list",
			data:  md("", "name: pdf-tools", "allowed-tools: [Read", "description: x"),
			probs: []Problem{problem(file, 3, `frontmatter is not valid YAML: did not find expected ',' or ']'; fix the syntax (quote values that contain ": " or start with a special character)`)},
		},
		{
			name:  "duplicate key",
			data:  md("", "name: pdf-tools", "description: x", "name: pdf-tools"),
			probs: []Problem{problem(file, 4, `key "name" is repeated (first on line 2); keep only one`)},
		},
		{
			name: "unexpected keys",
			data: md("", "name: pdf-tools", "description: Fill PDF forms.", "tags: [pdf]", "version: 2"),
			probs: []Problem{
				problem(file, 4, `unexpected key "tags"`+unexpectedMsg),
				problem(file, 5, `unexpected key "version"`+unexpectedMsg),
			},
		},
		{
			name:  "missing name",
			data:  md("", "description: Fill PDF forms."),
			probs: []Problem{problem(file, 1, "missing required key name; add name: pdf-tools")},
		},
		{
			name:  "empty name",
			data:  md("", "name:", "description: Fill PDF forms."),
			probs: []Problem{problem(file, 2, "name must not be empty; set it to pdf-tools")},
		},
		{
			name:  "name is a list",
			data:  md("", "name: [pdf-tools]", "description: Fill PDF forms."),
			probs: []Problem{problem(file, 2, "name must be a string, not a list; set it to pdf-tools")},
		},
		{
			name: "name in upper case",
			data: md("", "name: PDF-Tools", "description: Fill PDF forms."),
			probs: []Problem{
				problem(file, 2, `name "PDF-Tools" must be lowercase (use "pdf-tools")`),
				problem(file, 2, `name "PDF-Tools" does not match its folder "pdf-tools"; rename the folder or change the name so they are equal`),
			},
		},
		{
			name: "name does not match folder",
			data: md("", "name: pdf", "description: Fill PDF forms."),
			probs: []Problem{
				problem(file, 2, `name "pdf" does not match its folder "pdf-tools"; rename the folder or change the name so they are equal`),
			},
		},
		{
			name:  "description missing",
			data:  md("", "name: pdf-tools"),
			probs: []Problem{problem(file, 1, "missing required key description; add one that says what the skill does and when to use it")},
		},
		{
			name:  "description empty",
			data:  md("", "name: pdf-tools", `description: "  "`),
			probs: []Problem{problem(file, 3, "description must not be empty; say what the skill does and when to use it")},
		},
		{
			name:  "description null",
			data:  md("", "name: pdf-tools", "description: ~"),
			probs: []Problem{problem(file, 3, "description must not be empty; say what the skill does and when to use it")},
		},
		{
			name:  "description is a mapping",
			data:  md("", "name: pdf-tools", "description:", "  en: x"),
			probs: []Problem{problem(file, 4, "description must be a string, not a mapping")},
		},
		{
			name: "description of 1024 characters",
			data: md("", "name: pdf-tools", "description: "+strings.Repeat("é", 1024)),
			want: &Skill{Name: "pdf-tools", Description: strings.Repeat("é", 1024), Dir: "skills/pdf-tools"},
		},
		{
			name:  "description of 1025 characters",
			data:  md("", "name: pdf-tools", "description: "+strings.Repeat("é", 1025)),
			probs: []Problem{problem(file, 3, "description is 1025 characters long, over the limit of 1024; shorten it and move detail into the body")},
		},
		{
			name: "compatibility of 500 characters",
			data: md("", "name: pdf-tools", "description: d", "compatibility: "+strings.Repeat("x", 500)),
			want: &Skill{Name: "pdf-tools", Description: "d", Compatibility: strings.Repeat("x", 500), Dir: "skills/pdf-tools"},
		},
		{
			name:  "compatibility of 501 characters",
			data:  md("", "name: pdf-tools", "description: d", "compatibility: "+strings.Repeat("x", 501)),
			probs: []Problem{problem(file, 4, "compatibility is 501 characters long, over the limit of 500; shorten it")},
		},
		{
			name:  "compatibility is a list",
			data:  md("", "name: pdf-tools", "description: d", "compatibility: [linux]"),
			probs: []Problem{problem(file, 4, "compatibility must be a string, not a list")},
		},
		{
			name:  "license is a mapping",
			data:  md("", "name: pdf-tools", "description: d", "license: {spdx: MIT}"),
			probs: []Problem{problem(file, 4, "license must be a string, not a mapping")},
		},
		{
			name:  "metadata is a list",
			data:  md("", "name: pdf-tools", "description: d", "metadata: [a]"),
			probs: []Problem{problem(file, 4, "metadata must be a mapping of keys to string values, not a list")},
		},
		{
			name:  "metadata key repeated",
			data:  md("", "name: pdf-tools", "description: d", "metadata:", "  a: 1", "  a: 2"),
			probs: []Problem{problem(file, 6, `metadata key "a" is repeated (first on line 5); keep only one`)},
		},
		{
			name: "metadata value that is not a string",
			data: md("", "name: pdf-tools", "description: d", "metadata:", "  a: 1", "  b: [x]"),
			want: &Skill{Name: "pdf-tools", Description: "d", Metadata: map[string]string{"a": "1"}, Dir: "skills/pdf-tools"},
			probs: []Problem{warning(file, 6,
				`metadata value of "b" is a list, not a string; it is ignored (quote it or flatten it into string keys)`)},
		},
		{
			name: "every problem at once",
			data: md("", "name: Bad_Name", "tags: x", "compatibility: [a]"),
			probs: []Problem{
				problem(file, 1, "missing required key description; add one that says what the skill does and when to use it"),
				problem(file, 2, `name "Bad_Name" must be lowercase (use "bad-name")`),
				problem(file, 2, `name "Bad_Name" contains "_" (use only letters, digits and hyphens)`),
				problem(file, 2, `name "Bad_Name" does not match its folder "pdf-tools"; rename the folder or change the name so they are equal`),
				problem(file, 3, `unexpected key "tags"`+unexpectedMsg),
				problem(file, 4, "compatibility must be a string, not a list"),
			},
		},
		{
			name: "aliases resolve to their values",
			data: md("", "name: &n pdf-tools", "description: d", "metadata:", "  id: *n"),
			want: &Skill{Name: "pdf-tools", Description: "d", Metadata: map[string]string{"id": "pdf-tools"}, Dir: "skills/pdf-tools"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, problems := Parse("skills/pdf-tools", tt.data, Strict)
			checkParse(t, s, problems, tt.want, tt.probs)
		})
	}
}

// TestParseStrictNames runs every naming rule through Parse, with the name
// in a folder of the same name so only the rule under test can fail.
func TestParseStrictNames(t *testing.T) {
	tests := []struct {
		name   string
		folder string
		faults []string
	}{
		{name: "a", folder: "a"},
		{name: "pdf-tools-2", folder: "pdf-tools-2"},
		{name: strings.Repeat("a", 64), folder: strings.Repeat("a", 64)},
		{name: strings.Repeat("a", 65), folder: strings.Repeat("a", 65), faults: []string{"is 65 characters long, over the limit of 64"}},
		{name: "café", folder: "café"},
		{name: "日本語", folder: "日本語"},
		{name: "-pdf", folder: "-pdf", faults: []string{"must not start or end with a hyphen"}},
		{name: "pdf-", folder: "pdf-", faults: []string{"must not start or end with a hyphen"}},
		{name: "pdf--tools", folder: "pdf--tools", faults: []string{`must not contain "--" (use single hyphens)`}},
		{name: "pdf_tools", folder: "pdf_tools", faults: []string{`contains "_" (use only letters, digits and hyphens)`}},
		{name: "pdf.tools", folder: "pdf.tools", faults: []string{`contains "." (use only letters, digits and hyphens)`}},
		{name: "Pdf", folder: "Pdf", faults: []string{`must be lowercase (use "pdf")`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := "skills/" + tt.folder
			f := dir + "/SKILL.md"
			_, problems := Parse(dir, md("", "name: "+tt.name, "description: d"), Strict)
			var want []Problem
			for _, fault := range tt.faults {
				want = append(want, problem(f, 2, `name "`+tt.name+`" `+fault))
			}
			checkParse(t, nil, problems, nil, want)
		})
	}
}

func TestParseNFKC(t *testing.T) {
	tests := []struct {
		name, folder, wantName string
	}{
		{name: "cafe\u0301", folder: "café", wantName: "café"},
		{name: "café", folder: "cafe\u0301", wantName: "café"},
		{name: "ｐｄｆ", folder: "pdf", wantName: "pdf"},
		{name: " pdf ", folder: "pdf", wantName: "pdf"},
	}
	for _, tt := range tests {
		t.Run(tt.folder, func(t *testing.T) {
			s, problems := Parse("x/"+tt.folder, md("", `name: "`+tt.name+`"`, "description: d"), Strict)
			checkParse(t, s, problems, &Skill{Name: tt.wantName, Description: "d", Dir: "x/" + tt.folder}, nil)
		})
	}
}

func TestParseProblemsAreBounded(t *testing.T) {
	lines := []string{"name: pdf-tools", "description: d"}
	for i := range 250 {
		lines = append(lines, "key"+strings.Repeat("x", i)+": 1")
	}
	_, problems := Parse("skills/pdf-tools", md("", lines...), Strict)
	if len(problems) != maxProblems+1 {
		t.Fatalf("got %d problems, want %d", len(problems), maxProblems+1)
	}
	want := problem(file, 0, "150 more problems are not shown; fix the ones above first")
	if got := problems[maxProblems]; got != want {
		t.Errorf("last problem = %v, want %v", got, want)
	}
}
