package audit

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// checkQuickFrontMatter reads the frontmatter of text both ways and fails when the reader
// without a YAML parser accepts it and reads it otherwise than yaml.v3. It reports whether
// that reader accepted it.
func checkQuickFrontMatter(t *testing.T, text []byte) bool {
	t.Helper()
	start := 0
	if bytes.HasPrefix(text, []byte("\ufeff")) {
		start = 3
	}
	body, ok := bytes.CutPrefix(text[start:], []byte("---"))
	if !ok || len(body) == 0 || body[0] != '\n' && body[0] != '\r' {
		return false
	}
	head := body[:min(len(body), maxFrontMatter)]
	end := closingFence(head)
	if end < 0 {
		return false
	}
	y := head[:end]
	if _, ok := quickFrontMatter(y); !ok {
		return false
	}
	got, gotProblem := readFrontMatter(text, start+3, y)
	lines := lineStarts(text[start+3:])
	want, wantProblem := yamlFrontMatter(y, func(line, column int) int {
		if line < 1 || line > len(lines) {
			return 0
		}
		return start + 3 + lines[line-1] + max(0, column-1)
	})
	if gotProblem != wantProblem || !reflect.DeepEqual(got, want) {
		t.Fatalf("frontmatter %q:\nquick %+v %q\nyaml  %+v %q", y, got, gotProblem, want, wantProblem)
	}
	return true
}

var quickEdges = []string{
	"---\nname: x\ndescription: y\n---\n",
	"---\nname:   spaced   \ndescription: \"quoted  \"   \n---\n",
	"---\nname: 'single'\ndescription: a:b c#d e'f g\"h\nallowed-tools: Bash(git:*) Read, Write\n---\n",
	"---\nname: x\nmetadata:\n  author: A B\n  version: \"1.0\"\ndescription: y\n---\n",
	"---\nname: x\nmetadata:\n\ndescription: y\n---\n",
	"---\nname: x\nname: y\ndescription: z\n---\n",
	"---\nname: x\ndescription: a # comment\n---\n",
	"---\n# comment\nname: x\ndescription: y\n---\n",
	"---\nname: x\ndescription: y\n  more\n---\n",
	"---\nname: x\ndescription:\n  nested: y\n---\n",
	"---\nname: true\ndescription: 1.0\n---\n",
	"---\nname: ~\ndescription: null\n---\n",
	"---\nname: x\ndescription: \"a\\\"b\"\n---\n",
	"---\nname: x\ndescription: 'it''s'\n---\n",
	"---\nname: x\ndescription: y\nmetadata:\n  a: 1\n   b: 2\n---\n",
	"---\nname: x\ndescription: y\nmetadata:\n  a: 1\n  a: 2\n---\n",
	"---\nname: x\ndescription: y\nlist:\n  - a\n  - b\n---\n",
	"---\nname: x\ndescription: y:\n---\n",
	"---\nname: x\ndescription: y\n...\n---\n",
	"---\nname: x\ndescription: -y\n---\n",
	"---\nname: x\r\ndescription: y\r\n---\r\n",
	"\ufeff---\nname: x\ndescription: y\n---\n",
	"---\nname: x\ndescription: [a, b]\n---\n",
	"---\nname: x\ndescription: {a: b}\n---\n",
	"---\nname: x\ndescription: >\n  folded\n---\n",
	"---\nname: x\ndescription: &a anchor\nother: *a\n---\n",
	"---\nname: x\ndescription: !!str tagged\n---\n",
	"---\nkey:value\n---\n",
	"---\nname : x\ndescription: y\n---\n",
	"---\n  name: x\ndescription: y\n---\n",
	"---\nallowed-tools:\n  - Bash\n  - Read\nname: x\ndescription: y\n---\n",
}

// TestQuickFrontMatter shows that the reader without a YAML parser reads what yaml.v3 reads,
// on the usual frontmatter, on edge cases, and on frontmatter changed at random by characters
// that mean something in YAML; and that it does accept the usual frontmatter.
func TestQuickFrontMatter(t *testing.T) {
	var texts [][]byte
	skills, _ := benchSkills(50)
	for _, s := range skills {
		if !checkQuickFrontMatter(t, s["SKILL.md"].Data) {
			t.Fatalf("the plain frontmatter of a generated skill was left to yaml.v3: %q", s["SKILL.md"].Data[:200])
		}
		texts = append(texts, s["SKILL.md"].Data)
	}
	accepted := 0
	for _, e := range quickEdges {
		if checkQuickFrontMatter(t, []byte(e)) {
			accepted++
		}
		texts = append(texts, []byte(e))
	}
	if accepted < 8 {
		t.Fatalf("only %d of the edge cases were read without yaml.v3", accepted)
	}
	for _, text := range startTexts(t) {
		if bytes.HasPrefix(text, []byte("---")) {
			checkQuickFrontMatter(t, text)
			texts = append(texts, text)
		}
	}
	rng := rand.New(rand.NewPCG(5, 8))
	marks := []string{":", ": ", " ", "#", " #", "'", "\"", "-", "- ", "\n", "\n  ", "  ", "\t", "\\", "|", ">", "é", "---", "&", "*", "!", "[", "{", ",", "?", "%", "@", "`", "~", "\r"}
	for _, text := range texts {
		end := bytes.Index(text[3:], []byte("\n---")) + 3
		if end < 4 {
			continue
		}
		for range 40 {
			i := 4 + rng.IntN(end-4)
			m := []byte(marks[rng.IntN(len(marks))])
			checkQuickFrontMatter(t, append(append(append([]byte{}, text[:i]...), m...), text[i:]...))
		}
	}
}

// FuzzQuickFrontMatter compares the two readers on arbitrary frontmatter.
func FuzzQuickFrontMatter(f *testing.F) {
	for _, e := range quickEdges {
		f.Add(strings.TrimPrefix(strings.TrimSuffix(e, "---\n"), "---\n"))
	}
	f.Fuzz(func(t *testing.T, y string) {
		checkQuickFrontMatter(t, []byte("---\n"+y+"\n---\n"))
	})
}
