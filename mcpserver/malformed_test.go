package mcpserver

import (
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/lifecycletest"
)

// TestMalformedArguments checks that bad input gives a tool error that says what is wrong,
// and that the server goes on working.
func TestMalformedArguments(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	publishSkill(t, dir, "dates", cleanLine)
	c := connect(t, dir)
	var open actionOut
	c.ok("create_candidate", map[string]any{"name": "greeting", "description": "Greets.", "body": "Say hello."}, &open)
	skill := files("dates", cleanLine)[0]
	withFile := func(path string) []map[string]string {
		return []map[string]string{skill, {"path": path, "content": "x"}}
	}
	for _, tc := range []struct {
		name, tool string
		args       map[string]any
		want       string
	}{
		{"missing required", "read_skill", map[string]any{}, `missing properties: ["name"]`},
		{"wrong type", "read_skill", map[string]any{"name": 5}, "name"},
		{"unknown argument", "read_skill", map[string]any{"name": "dates", "extra": 1}, "extra"},
		{"name too long", "create_candidate", map[string]any{"name": strings.Repeat("a", 65), "description": "d", "body": "b"}, "maxLength"},
		{"invalid name", "create_candidate", map[string]any{"name": "Bad_Name", "description": "d", "body": "b"}, "argument name"},
		{"body and files", "create_candidate", map[string]any{"name": "x", "description": "d", "body": "b", "files": files("x")}, "not both"},
		{"neither form", "create_candidate", map[string]any{"message": "hi"}, "give name, description and body"},
		{"fields missing", "create_candidate", map[string]any{"name": "x", "body": "b"}, "argument description: is missing"},
		{"body with frontmatter", "create_candidate", map[string]any{"name": "x", "description": "d", "body": "---\nname: y\n---\n"}, "after the frontmatter"},
		{"body too large", "create_candidate", map[string]any{"name": "x", "description": "d", "body": strings.Repeat("é", 150<<10)}, "at most 256 KiB"},
		{"dot-dot path", "create_candidate", map[string]any{"files": withFile("../evil.sh")}, "has a .. element"},
		{"inner dot-dot", "create_candidate", map[string]any{"files": withFile("scripts/../../evil.sh")}, "has a .. element"},
		{"absolute path", "create_candidate", map[string]any{"files": withFile("/etc/passwd")}, "is absolute"},
		{"drive path", "create_candidate", map[string]any{"files": withFile("C:/x")}, "is absolute"},
		{"backslash", "create_candidate", map[string]any{"files": withFile(`scripts\run.sh`)}, "backslash"},
		{"git folder", "create_candidate", map[string]any{"files": withFile(".git/config")}, ".git"},
		{"duplicate", "create_candidate", map[string]any{"files": withFile("SKILL.md")}, "given twice"},
		{"file and folder", "create_candidate", map[string]any{"files": append(withFile("a"), map[string]string{"path": "a/b", "content": ""})}, "also the folder"},
		{"no SKILL.md", "create_candidate", map[string]any{"files": []map[string]string{{"path": "README.md", "content": "x"}}}, "no SKILL.md"},
		{"no files", "create_candidate", map[string]any{"files": []map[string]string{}}, "minItems"},
		{"unloadable SKILL.md", "create_candidate", map[string]any{"files": []map[string]string{{"path": "SKILL.md", "content": "no frontmatter"}}}, "cannot be loaded"},
		{"unknown candidate", "review_candidate", map[string]any{"id": "nope-1234"}, "nope-1234: candidate not found"},
		{"bad candidate id", "publish_candidate", map[string]any{"id": "UPPER"}, "pattern"},
		{"unknown channel", "publish_candidate", map[string]any{"id": "x-1", "channel": "beta"}, "enum"},
		{"limit too small", "match_skills", map[string]any{"task": "dates", "limit": 0}, "minimum"},
		{"limit too large", "match_skills", map[string]any{"task": "dates", "limit": 101}, "maximum"},
		{"fractional limit", "match_skills", map[string]any{"task": "dates", "limit": 1.5}, "limit"},
		{"unknown state", "list_candidates", map[string]any{"state": "bogus"}, "enum"},
		{"patch unknown", "patch_candidate", map[string]any{"id": "nope-1234", "message": "m", "body": "b"}, "not found"},
		{"patch without content", "patch_candidate", map[string]any{"id": open.ID, "message": "m"}, "give the new version"},
		{"patch without message", "patch_candidate", map[string]any{"id": open.ID, "body": "b"}, `missing properties: ["message"]`},
		{"patch both forms", "patch_candidate", map[string]any{"id": open.ID, "message": "m", "body": "b", "files": files("greeting")}, "not both"},
		{"patch renames", "patch_candidate", map[string]any{"id": open.ID, "message": "m", "files": files("other")}, `named "other", not "greeting"`},
		{"patch unchanged", "patch_candidate", map[string]any{"id": open.ID, "message": "m", "body": "Say hello."}, "nothing to revise"},
		{"case collision", "create_candidate", map[string]any{"files": withFile("skill.md")}, "differ only in case"},
		{"device name", "create_candidate", map[string]any{"files": withFile("scripts/aux.txt")}, `"scripts/aux.txt" is a device name`},
		{"look-alike SKILL.md", "create_candidate", map[string]any{"files": withFile("SKІLL.md")}, `"SKІLL.md" looks like SKILL.md`},
		{"escape in a name", "create_candidate", map[string]any{"files": withFile("a\x1b[2Jb.md")}, "control character"},
		{"non-ASCII name", "create_candidate", map[string]any{"name": "café", "description": "d", "body": "b"}, "must be ASCII"},
		{"device skill name", "create_candidate", map[string]any{"name": "nul", "description": "d", "body": "b"}, "device name"},
		{"unknown skill", "read_skill", map[string]any{"name": "nope"}, "nope: skill not found"},
		{"rollback unknown", "rollback_skill", map[string]any{"name": "nope"}, "nope: skill not found"},
		{"rollback bad commit", "rollback_skill", map[string]any{"name": "dates", "commit": "zzzz"}, "pattern"},
		{"rollback foreign commit", "rollback_skill", map[string]any{"name": "dates", "commit": "abcdef12"}, "not a publish of this skill"},
		{"delete unknown", "delete_candidate", map[string]any{"name": "nope", "message": "m"}, "not published"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := c.fails(tc.tool, tc.args)
			t.Log(msg)
			if !strings.Contains(msg, tc.want) {
				t.Fatalf("%s %v:\n%s\nwant it to say %q", tc.tool, tc.args, msg, tc.want)
			}
		})
	}
	var list listSkillsOut
	c.ok("list_skills", map[string]any{}, &list)
	if list.Total != 1 {
		t.Fatalf("list_skills after the bad calls: %+v", list)
	}
	if _, err := c.cs.CallTool(t.Context(), nil); err == nil {
		t.Fatal("a call without params: no error")
	}
	c.ok("list_skills", map[string]any{}, &list)
}
