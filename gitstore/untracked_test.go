package gitstore

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestUntracked checks that the folders named are those git would list as untracked: not
// tracked, not ignored, whether git lists the folder, a folder above it or files in it.
func TestUntracked(t *testing.T) {
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q")
	writeFiles(t, dir, map[string]string{
		"app/.claude/skills/pdf/SKILL.md":  "x\n",
		"app/.claude/settings.json":        "{}\n",
		"app/.agents/skills/pdf/SKILL.md":  "x\n",
		"app/.cursor/skills/pdf/SKILL.md":  "x\n",
		"app/.github/skills/pdf/SKILL.md":  "x\n",
		"app/.github/skills/docx/SKILL.md": "x\n",
		"app/.gitignore":                   "/.agents/skills/\n",
	})
	gitRun(t, dir, "add", "app/.github/skills/pdf/SKILL.md", "app/.gitignore")
	gitRun(t, dir, "commit", "-q", "-m", "tracked")
	app := filepath.Join(dir, "app")
	got, err := Untracked(app, []string{".claude/skills", ".agents/skills", ".github/skills", ".none/skills"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{".claude/skills", ".github/skills"}, got); diff != "" {
		t.Errorf("untracked (-want +got):\n%s", diff)
	}
	gitRun(t, dir, "add", "app/.github")
	got, err = Untracked(app, []string{".github/skills", ".cursor/skills"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{".cursor/skills"}, got); diff != "" {
		t.Errorf("after git add (-want +got):\n%s", diff)
	}
	if _, err := Untracked(t.TempDir(), []string{"x"}); err == nil {
		t.Error("Untracked outside a work tree: no error")
	}
}
