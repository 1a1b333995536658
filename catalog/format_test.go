package catalog

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestParseEncoding(t *testing.T) {
	dir := "skills/pdf-tools"
	bomMsg := "file starts with a UTF-8 byte order mark; save it as UTF-8 without one"
	tests := []struct {
		name  string
		mode  Mode
		data  string
		want  *Skill
		probs []Problem
	}{
		{
			name: "CRLF line endings",
			data: "---\r\nname: pdf-tools\r\ndescription: Fill forms.\r\n---\r\n# Title\r\n",
			want: &Skill{Name: "pdf-tools", Description: "Fill forms.", Dir: dir, Body: "# Title\r\n"},
		},
		{
			name: "CRLF with trailing blanks on the delimiters",
			data: "--- \r\nname: pdf-tools\r\ndescription: Fill forms.\r\n---\t\r\nbody",
			want: &Skill{Name: "pdf-tools", Description: "Fill forms.", Dir: dir, Body: "body"},
		},
		{
			name:  "byte order mark in strict mode",
			data:  "\ufeff---\nname: pdf-tools\ndescription: d\n---\n",
			probs: []Problem{problem(file, 1, bomMsg)},
		},
		{
			name:  "byte order mark in lenient mode",
			mode:  Lenient,
			data:  "\ufeff---\r\nname: pdf-tools\r\ndescription: d\r\n---\r\n",
			want:  &Skill{Name: "pdf-tools", Description: "d", Dir: dir},
			probs: []Problem{warning(file, 1, bomMsg)},
		},
		{
			name:  "invalid UTF-8 in the frontmatter",
			mode:  Lenient,
			data:  "---\nname: pdf-tools\ndescription: caf\xe9\n---\n",
			probs: []Problem{problem(file, 3, "frontmatter is not valid UTF-8; save the file as UTF-8")},
		},
		{
			name:  "invalid UTF-8 in the body, strict",
			data:  "---\nname: pdf-tools\ndescription: d\n---\nline\n\xff\xfe\n",
			probs: []Problem{problem(file, 6, "body is not valid UTF-8; save the file as UTF-8")},
		},
		{
			name:  "invalid UTF-8 in the body, lenient",
			mode:  Lenient,
			data:  "---\nname: pdf-tools\ndescription: d\n---\n\xff\n",
			want:  &Skill{Name: "pdf-tools", Description: "d", Dir: dir, Body: "\xff\n"},
			probs: []Problem{warning(file, 5, "body is not valid UTF-8; save the file as UTF-8")},
		},
		{
			name:  "control character in a value",
			data:  "---\nname: pdf-tools\ndescription: \"a\x01\"\n---\n",
			probs: []Problem{problem(file, 0, `frontmatter is not valid YAML: control characters are not allowed; fix the syntax (quote values that contain ": " or start with a special character)`)},
		},
		{
			name:  "tab indentation",
			data:  "---\nname: pdf-tools\nmetadata:\n\tx: 1\ndescription: d\n---\n",
			probs: []Problem{problem(file, 4, `frontmatter is not valid YAML: found character that cannot start any token; fix the syntax (quote values that contain ": " or start with a special character)`)},
		},
		{
			name: "closing line inside a block scalar ends the block",
			data: "---\nname: pdf-tools\ndescription: |\n  text\n  ---\nmore\n",
			want: &Skill{Name: "pdf-tools", Description: "text\n", Dir: dir, Body: "more\n"},
		},
		{
			name: "no newline after the closing line",
			data: "---\nname: pdf-tools\ndescription: d\n---",
			want: &Skill{Name: "pdf-tools", Description: "d", Dir: dir},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, problems := Parse(dir, []byte(tt.data), tt.mode)
			checkParse(t, s, problems, tt.want, tt.probs)
		})
	}
}

func TestParseTooBig(t *testing.T) {
	data := append(md("", "name: pdf-tools", "description: d"), bytes.Repeat([]byte("x"), MaxSkillFileSize)...)
	s, problems := Parse("skills/pdf-tools", data, Lenient)
	want := []Problem{problem(file, 0, "file is 1048615 bytes, over the 1048576-byte (1 MiB) limit; move detail into files under references/")}
	checkParse(t, s, problems, nil, want)
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// oneByteReader returns one byte per Read, to test reads split anywhere.
type oneByteReader struct{ r io.Reader }

func (o oneByteReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	return o.r.Read(p[:1])
}

func TestParseFrontmatterStopsEarly(t *testing.T) {
	head := "---\nname: pdf-tools\ndescription: d\n---\n"
	data := head + strings.Repeat("body line\n", 200000)
	r := &countingReader{r: strings.NewReader(data)}
	s, problems := ParseFrontmatter("skills/pdf-tools", r, Strict)
	checkParse(t, s, problems, &Skill{Name: "pdf-tools", Description: "d", Dir: "skills/pdf-tools"}, nil)
	if r.n > 8192 {
		t.Errorf("read %d bytes of a %d-byte file; want only the frontmatter's first chunk", r.n, len(data))
	}
}

func TestParseFrontmatterMatchesParse(t *testing.T) {
	inputs := []string{
		"---\nname: pdf-tools\ndescription: d\n---\nbody",
		"\ufeff---\r\nname: pdf-tools\r\ndescription: d\r\n---\r\n",
		"---\nname: pdf-tools\n",
		"--",
		"",
		"-",
		"---",
		"--- \t\nname: x\ndescription: d\n  ---  \n",
		"----\nname: x\n---\n",
		"name: x\n---\n",
		"\ufeff",
		"\xef\xbb",
		"---\nname: pdf-tools\ndescription: [\n---\n",
	}
	for _, in := range inputs {
		for _, mode := range []Mode{Strict, Lenient} {
			want, wantProblems := Parse("skills/pdf-tools", []byte(in), mode)
			if want != nil {
				want.Body = ""
			}
			for _, r := range []io.Reader{strings.NewReader(in), oneByteReader{strings.NewReader(in)}} {
				got, problems := ParseFrontmatter("skills/pdf-tools", r, mode)
				checkParse(t, got, problems, want, wantProblems)
			}
		}
	}
}

func TestParseFrontmatterBounded(t *testing.T) {
	data := "---\nname: pdf-tools\n" + strings.Repeat("# comment line\n", MaxSkillFileSize/10)
	r := &countingReader{r: strings.NewReader(data)}
	s, problems := ParseFrontmatter("skills/pdf-tools", r, Lenient)
	want := []Problem{problem(file, 1, "frontmatter opened on line 1 is never closed; add a --- line after its last key")}
	checkParse(t, s, problems, nil, want)
	if r.n > MaxSkillFileSize+1 {
		t.Errorf("read %d bytes, more than the %d-byte limit", r.n, MaxSkillFileSize+1)
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestParseFrontmatterReadError(t *testing.T) {
	s, problems := ParseFrontmatter("skills/pdf-tools", failingReader{}, Strict)
	checkParse(t, s, problems, nil, []Problem{problem(file, 0, "file cannot be read (disk on fire); check that it is a readable regular file")})
}

func TestYAMLErrorLine(t *testing.T) {
	tests := []struct {
		front    []string
		wantLine int
	}{
		{front: []string{"name: [a"}, wantLine: 2},
		{front: []string{"x: 1", "name: [a"}, wantLine: 3},
		{front: []string{"a: b: c"}, wantLine: 2},
		{front: []string{"x: 1", "a: b: c"}, wantLine: 3},
		{front: []string{"x: 1", "y: 2", "  z: 3"}, wantLine: 4},
		{front: []string{"x: 1", "- a"}, wantLine: 2},
		{front: []string{"x: 1", "y: *z"}, wantLine: 0},
		{front: []string{"x: 1", "y: 'abc", ""}, wantLine: 3},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.front, "|"), func(t *testing.T) {
			_, problems := Parse("d", md("", tt.front...), Strict)
			if len(problems) != 1 {
				t.Fatalf("got %d problems, want 1: %v", len(problems), problems)
			}
			if problems[0].Line != tt.wantLine {
				t.Errorf("line = %d, want %d (%s)", problems[0].Line, tt.wantLine, problems[0].Message)
			}
		})
	}
}
