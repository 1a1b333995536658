package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/lifecycletest"
)

// TestReadToolsUnreadableObject checks that a published SKILL.md git cannot read fails
// list_skills, read_skill and match_skills with an error naming the object and `git fsck`,
// never "not found", and that the tools work again once the object is restored.
func TestReadToolsUnreadableObject(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	publishSkill(t, dir, "dates", cleanLine)
	id := strings.TrimSpace(gitOut(t, dir, "rev-parse", "main:skills/dates/SKILL.md"))
	gitDir := strings.TrimSpace(gitOut(t, dir, "rev-parse", "--absolute-git-dir"))
	file := filepath.Join(gitDir, "objects", id[:2], id[2:])
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(gitDir, "skillgit", "cache")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(file, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("garbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := connect(t, dir)
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"list_skills", map[string]any{}},
		{"read_skill", map[string]any{"name": "dates"}},
		{"match_skills", map[string]any{"task": "print the date"}},
	}
	for _, call := range calls {
		text := c.fails(call.tool, call.args)
		if !strings.Contains(text, id) || !strings.Contains(text, "git fsck") || strings.Contains(text, "not found") {
			t.Errorf("%s: %q; want the object %s and git fsck, not \"not found\"", call.tool, text, id)
		}
	}

	if err := os.WriteFile(file, orig, 0o444); err != nil {
		t.Fatal(err)
	}
	c = connect(t, dir)
	var read readSkillOut
	c.ok("read_skill", map[string]any{"name": "dates"}, &read)
	if read.Name != "dates" {
		t.Errorf("read_skill after the object was restored: %+v", read)
	}
}
