package catalog

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// md builds a SKILL.md from frontmatter lines and a body.
func md(body string, frontmatter ...string) []byte {
	return []byte("---\n" + strings.Join(frontmatter, "\n") + "\n---\n" + body)
}

// cmpSkill compares skills by their exported fields.
var cmpSkill = cmpopts.IgnoreUnexported(Skill{})

// problem builds an error-level problem about file at line.
func problem(file string, line int, msg string) Problem {
	return Problem{File: file, Line: line, Message: msg}
}

// warning builds a warning about file at line.
func warning(file string, line int, msg string) Problem {
	return Problem{File: file, Line: line, Message: msg, Warning: true}
}

// checkParse compares what Parse returned with what a test wants.
func checkParse(t *testing.T, gotSkill *Skill, gotProblems []Problem, wantSkill *Skill, wantProblems []Problem) {
	t.Helper()
	if diff := cmp.Diff(wantProblems, gotProblems, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantSkill, gotSkill, cmpSkill, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("skill (-want +got):\n%s", diff)
	}
}
