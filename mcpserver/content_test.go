package mcpserver

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
)

func TestCheckPath(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"SKILL.md", ""},
		{"scripts/run.sh", ""},
		{"references/a b.md", ""},
		{".hidden/notes.md", ""},
		{"", "is empty"},
		{"../x", ".. element"},
		{"a/../../x", ".. element"},
		{"a/..", ".. element"},
		{"/etc/passwd", "absolute"},
		{"C:/windows", "absolute"},
		{`a\b`, "backslash"},
		{"a//b", "empty or ."},
		{"./a", "empty or ."},
		{"a/", "empty or ."},
		{".git/hooks/pre-commit", ".git"},
		{"sub/.GIT/config", ".git"},
		{"a\x00b", "control character"},
		{"a\nb", "control character"},
		{strings.Repeat("a", maxPathLen+1), "bytes long"},
		{"a\x1bb.md", "control character"},
		{"SKІLL.md", "looks like SKILL.md"},
		{"CON", "device name"},
		{"scripts/aux.txt", "device name"},
		{strings.Repeat("a", 256), "256 bytes"},
	} {
		err := checkPath(&catalog.PathSet{}, tc.path)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("checkPath(%q) = %v; want %q", tc.path, err, tc.want)
		}
	}
}

func TestSplitFrontmatter(t *testing.T) {
	for _, tc := range []struct {
		in, fm, body string
		ok           bool
	}{
		{"---\nname: a\n---\n# A\n", "name: a\n", "# A\n", true},
		{"---\r\nname: a\r\n---\r\nbody", "name: a\r\n", "body", true},
		{"\ufeff---\nname: a\n---\n", "name: a\n", "", true},
		{"---\nname: a\n---", "name: a\n", "", true},
		{"---\nname: a\n", "", "", false},
		{"# no frontmatter\n", "", "", false},
		{"", "", "", false},
	} {
		fm, body, ok := splitFrontmatter(tc.in)
		if fm != tc.fm || body != tc.body || ok != tc.ok {
			t.Errorf("splitFrontmatter(%q) = %q, %q, %v; want %q, %q, %v", tc.in, fm, body, ok, tc.fm, tc.body, tc.ok)
		}
	}
}

// TestSkillMD checks that the SKILL.md files the tools write are strictly valid and say what
// was sent, however the description has to be quoted.
func TestSkillMD(t *testing.T) {
	for _, desc := range []string{"Plain words.", "Use: when asked", "- looks like a list", "true", `Quotes "and" 'more' #hash`, "Line one\nline two"} {
		data, err := newSkillMD("demo", desc, "# Demo\n\nBody.")
		if err != nil {
			t.Fatal(err)
		}
		sk, problems := catalog.Parse("demo", data, catalog.Strict)
		if sk == nil || len(problems) > 0 || sk.Description != desc || sk.Body != "\n# Demo\n\nBody.\n" {
			t.Fatalf("newSkillMD(%q):\n%s\nparsed %+v, %v", desc, data, sk, problems)
		}
	}
}

func TestReplaceBody(t *testing.T) {
	old := "---\nname: demo\ndescription: Old words.\nlicense: MIT\nmetadata:\n  owner: ops\n---\n# Old\n"
	for _, tc := range []struct {
		desc, body string
		want       string
	}{
		{"", "# New", "---\nname: demo\ndescription: Old words.\nlicense: MIT\nmetadata:\n  owner: ops\n---\n\n# New\n"},
		{"New: words.", "", "---\nname: demo\ndescription: 'New: words.'\nlicense: MIT\nmetadata:\n  owner: ops\n---\n# Old\n"},
		{"Both.", "# Both\n", "---\nname: demo\ndescription: Both.\nlicense: MIT\nmetadata:\n  owner: ops\n---\n\n# Both\n"},
	} {
		got, err := replaceBody([]byte(old), tc.desc, tc.body)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, string(got)); diff != "" {
			t.Errorf("replaceBody(%q, %q) (-want +got):\n%s", tc.desc, tc.body, diff)
		}
	}
	if _, err := replaceBody([]byte("# no frontmatter"), "", "x"); err == nil {
		t.Error("replaceBody of a file without frontmatter: no error")
	}
}

// TestKeepsOtherFiles checks that a new SKILL.md body keeps the skill's other files and their
// execute bits, and that files sent whole keep the execute bits of the files they replace.
func TestKeepsOtherFiles(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	publishFiles(t, dir, "dates", map[string]string{"SKILL.md": testenv.SkillMD("dates", cleanLine), "scripts/now.sh": "#!/bin/sh\ndate\n"})
	c := connect(t, dir)
	var out actionOut
	c.ok("create_candidate", map[string]any{"name": "dates", "description": "Prints the date.", "body": "# Dates\n\n" + cleanLine + "\n\nRun scripts/now.sh."}, &out)
	if got := gitOut(t, dir, "ls-tree", "-r", "candidate/"+out.ID, "skills/dates/scripts/"); !strings.HasPrefix(got, "100755 blob ") {
		t.Fatalf("script after a new body: %q", got)
	}
	c.ok("patch_candidate", map[string]any{"id": out.ID, "message": "shorter script", "files": []map[string]string{
		{"path": "SKILL.md", "content": testenv.SkillMD("dates", cleanLine, "Run scripts/now.sh.")},
		{"path": "scripts/now.sh", "content": "#!/bin/sh\ndate -u\n"},
		{"path": "references/formats.md", "content": "ISO 8601.\n"},
	}}, &out)
	got := gitOut(t, dir, "ls-tree", "-r", "--format=%(objectmode) %(path)", "candidate/"+out.ID, "skills/dates/")
	want := "100644 skills/dates/SKILL.md\n100644 skills/dates/references/formats.md\n100755 skills/dates/scripts/now.sh\n"
	if got != want {
		t.Fatalf("candidate folder after patch_candidate with files:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(gitOut(t, dir, "log", "-1", "--format=%B", "candidate/"+out.ID), "shorter script") {
		t.Fatal("the revise commit does not carry the feedback")
	}
}
