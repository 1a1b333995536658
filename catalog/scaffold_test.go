package catalog

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestScaffoldGolden(t *testing.T) {
	golden(t, "scaffold.golden", Scaffold("pdf-tools", "Fill PDF forms. Use when asked to edit a PDF."))
}

func TestScaffoldIsStrictlyValid(t *testing.T) {
	tests := []struct {
		name, description, wantDescription string
	}{
		{name: "pdf-tools", description: "Fill PDF forms.", wantDescription: "Fill PDF forms."},
		{name: "yes", description: "no", wantDescription: "no"},
		{name: "123", description: "null", wantDescription: "null"},
		{name: "café", description: "key: value # not a comment", wantDescription: "key: value # not a comment"},
		{name: "a-b", description: "- [list] {map} & *alias !tag %directive @at `tick`", wantDescription: "- [list] {map} & *alias !tag %directive @at `tick`"},
		{name: "quotes", description: `it's "quoted" \ back`, wantDescription: `it's "quoted" \ back`},
		{name: "lines", description: "first\nsecond\r\n---\nthird", wantDescription: "first\nsecond\r\n---\nthird"},
		{name: "controls", description: "tab\there\x01\u2028\ufeff", wantDescription: "tab\there\x01\u2028\ufeff"},
		{name: "bad-utf8", description: "caf\xe9", wantDescription: "caf\uFFFD"},
		{name: "dashes", description: strings.Repeat("word --- ", 100), wantDescription: strings.TrimSpace(strings.Repeat("word --- ", 100))},
		{name: "spaces", description: "  padded  ", wantDescription: "padded"},
		{name: "long", description: strings.Repeat("word ", 204) + "end", wantDescription: strings.Repeat("word ", 204) + "end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := Scaffold(tt.name, tt.description)
			s, problems := Parse("skills/"+tt.name, data, Strict)
			if len(problems) != 0 || s == nil {
				t.Fatalf("scaffold is not strictly valid: %v\n%s", problems, data)
			}
			want := &Skill{Name: tt.name, Description: tt.wantDescription, Dir: "skills/" + tt.name, Body: s.Body}
			if diff := cmp.Diff(want, s, cmpSkill); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
			for _, section := range []string{"## When to use", "## Steps", "## Examples"} {
				if !strings.Contains(s.Body, section) {
					t.Errorf("body lacks %q", section)
				}
			}
		})
	}
}

func TestScaffoldPlaceholderIsReported(t *testing.T) {
	data := Scaffold("notes", "")
	for _, tt := range []struct {
		mode    Mode
		loads   bool
		warning bool
	}{{Strict, false, false}, {Lenient, true, true}} {
		s, problems := Parse("skills/notes", data, tt.mode)
		if (s != nil) != tt.loads || len(problems) != 1 || problems[0].Warning != tt.warning ||
			!strings.Contains(problems[0].Message, "description is still the placeholder") {
			t.Errorf("mode %v: skill %v, problems %v; want one placeholder problem (warning %v)", tt.mode, s != nil, problems, tt.warning)
		}
	}
}

func TestIsPlaceholderDescription(t *testing.T) {
	for text, want := range map[string]bool{
		placeholderDescription: true,
		"Describe what pdf-tools does and when an agent should use it.":   true,
		"  Describe what notes does and when an agent should use it.\n":   true,
		"Describe what PDF forms need and when an agent should use it.":   false,
		"Fill PDF forms. Use when a task mentions PDF forms.":             false,
		"Describe what pdf-tools does and when an agent should use it. X": false,
	} {
		if got := IsPlaceholderDescription(text); got != want {
			t.Errorf("IsPlaceholderDescription(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestScaffoldQuoting(t *testing.T) {
	tests := []struct {
		name     string
		wantLine string
	}{
		{name: "pdf-tools", wantLine: "name: pdf-tools\n"},
		{name: "yes", wantLine: "name: \"yes\"\n"},
		{name: "123", wantLine: "name: \"123\"\n"},
		{name: "null", wantLine: "name: \"null\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(Scaffold(tt.name, "d")); !strings.Contains(got, tt.wantLine) {
				t.Errorf("Scaffold(%q) lacks %q:\n%s", tt.name, tt.wantLine, got)
			}
		})
	}
}

func TestTitle(t *testing.T) {
	tests := map[string]string{"pdf-tools": "Pdf Tools", "x": "X", "été-2": "Été 2", "": "New Skill", "---": "New Skill"}
	for in, want := range tests {
		if got := title(in); got != want {
			t.Errorf("title(%q) = %q, want %q", in, got, want)
		}
	}
}
