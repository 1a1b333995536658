package catalog

import (
	"strings"
	"testing"
)

func TestParseLenient(t *testing.T) {
	dir := "skills/pdf-tools"
	tests := []struct {
		name  string
		data  []byte
		want  *Skill
		probs []Problem
	}{
		{
			name: "name differs from folder",
			data: md("", "name: pdf", "description: d"),
			want: &Skill{Name: "pdf", Description: "d", Dir: dir},
			probs: []Problem{warning(file, 2,
				`name "pdf" does not match its folder "pdf-tools"; rename the folder or change the name so they are equal`)},
		},
		{
			name: "upper-case name",
			data: md("", "name: Pdf-Tools", "description: d"),
			want: &Skill{Name: "Pdf-Tools", Description: "d", Dir: dir},
			probs: []Problem{
				warning(file, 2, `name "Pdf-Tools" must be lowercase (use "pdf-tools")`),
				warning(file, 2, `name "Pdf-Tools" does not match its folder "pdf-tools"; rename the folder or change the name so they are equal`),
			},
		},
		{
			name:  "missing name loads under the folder name",
			data:  md("", "description: d"),
			want:  &Skill{Name: "pdf-tools", Description: "d", Dir: dir},
			probs: []Problem{warning(file, 1, "missing required key name; add name: pdf-tools")},
		},
		{
			name: "over-long name, description and compatibility",
			data: md("", "name: "+strings.Repeat("p", 65), "description: "+strings.Repeat("d", 1025), "compatibility: "+strings.Repeat("c", 501)),
			want: &Skill{Name: strings.Repeat("p", 65), Description: strings.Repeat("d", 1025), Compatibility: strings.Repeat("c", 501), Dir: dir},
			probs: []Problem{
				warning(file, 2, `name "`+strings.Repeat("p", 65)+`" is 65 characters long, over the limit of 64`),
				warning(file, 2, `name "`+strings.Repeat("p", 65)+`" does not match its folder "pdf-tools"; rename the folder or change the name so they are equal`),
				warning(file, 3, "description is 1025 characters long, over the limit of 1024; shorten it and move detail into the body"),
				warning(file, 4, "compatibility is 501 characters long, over the limit of 500; shorten it"),
			},
		},
		{
			name:  "unknown keys",
			data:  md("", "name: pdf-tools", "description: d", "tags: [a]"),
			want:  &Skill{Name: "pdf-tools", Description: "d", Dir: dir},
			probs: []Problem{warning(file, 4, `unexpected key "tags"`+unexpectedMsg)},
		},
		{
			name:  "wrongly typed optional field is dropped",
			data:  md("", "name: pdf-tools", "description: d", "license: [MIT]"),
			want:  &Skill{Name: "pdf-tools", Description: "d", Dir: dir},
			probs: []Problem{warning(file, 4, "license must be a string, not a list")},
		},
		{
			name: "name that would escape a folder",
			data: md("", "name: ../../etc", "description: d"),
			want: &Skill{Name: "pdf-tools", Description: "d", Dir: dir},
			probs: []Problem{
				warning(file, 2, `name "../../etc" contains ".", "/" (use only letters, digits and hyphens)`),
				warning(file, 2, `name "../../etc" does not match its folder "pdf-tools"; rename the folder or change the name so they are equal`),
				warning(file, 2, `name "../../etc" cannot be used as a folder name; the skill is loaded as "pdf-tools"`),
			},
		},
		{
			name: "reserved device name",
			data: md("", "name: con", "description: d"),
			want: &Skill{Name: "pdf-tools", Description: "d", Dir: dir},
			probs: []Problem{
				warning(file, 2, `name "con" does not match its folder "pdf-tools"; rename the folder or change the name so they are equal`),
				warning(file, 2, `name "con" is a device name reserved on Windows, where the skill cannot be checked out; choose another name`),
				warning(file, 2, `name "con" cannot be used as a folder name; the skill is loaded as "pdf-tools"`),
			},
		},
		{
			name:  "missing description skips the skill",
			data:  md("", "name: pdf-tools"),
			probs: []Problem{problem(file, 1, "missing required key description; add one that says what the skill does and when to use it")},
		},
		{
			name:  "empty description skips the skill",
			data:  md("", "name: pdf-tools", "description: ''"),
			probs: []Problem{problem(file, 3, "description must not be empty; say what the skill does and when to use it")},
		},
		{
			name:  "unparseable frontmatter skips the skill",
			data:  md("", "name: pdf-tools", "description: [x"),
			probs: []Problem{problem(file, 3, `frontmatter is not valid YAML: did not find expected ',' or ']'; fix the syntax (quote values that contain ": " or start with a special character)`)},
		},
		{
			name:  "unclosed frontmatter skips the skill",
			data:  []byte("---\nname: pdf-tools\ndescription: d\n"),
			probs: []Problem{problem(file, 1, "frontmatter opened on line 1 is never closed; add a --- line after its last key")},
		},
		{
			name:  "repeated key skips the skill",
			data:  md("", "name: pdf-tools", "description: d", "description: e"),
			probs: []Problem{problem(file, 4, `key "description" is repeated (first on line 3); keep only one`)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, problems := Parse(dir, tt.data, Lenient)
			checkParse(t, s, problems, tt.want, tt.probs)
		})
	}
}
