package agentsync

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAppendGitignore checks that the lines are added once, after the file's own lines,
// which are kept byte for byte, with the file's mode; and that a link is refused.
func TestAppendGitignore(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, ".gitignore")
	if err := os.WriteFile(file, []byte("node_modules/\r\n/.claude/skills/  \n*.log"), 0o600); err != nil {
		t.Fatal(err)
	}
	lines := []string{"/.claude/skills/", "/.agents/skills/"}
	for range 2 {
		if err := AppendGitignore(file, lines); err != nil {
			t.Fatal(err)
		}
	}
	want := "node_modules/\r\n/.claude/skills/  \n*.log\n" + gitignoreComment + "\n/.agents/skills/\n"
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf(".gitignore:\n%q\nwant\n%q", got, want)
	}
	if st, err := os.Stat(file); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v (%v), want 0600", st.Mode().Perm(), err)
	}

	fresh := filepath.Join(t.TempDir(), ".gitignore")
	if err := AppendGitignore(fresh, lines); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(fresh); string(got) != gitignoreComment+"\n/.claude/skills/\n/.agents/skills/\n" {
		t.Errorf("new .gitignore: %q", got)
	}

	link := filepath.Join(t.TempDir(), ".gitignore")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	if err := AppendGitignore(link, []string{"/x/"}); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a link: %v, want it refused", err)
	}
}

// TestGitignoreLine checks that a folder's line matches that folder only.
func TestGitignoreLine(t *testing.T) {
	tests := map[string]string{
		".claude/skills":   "/.claude/skills/",
		"a*b/[x]?":         `/a\*b/\[x]\?/`,
		"#notes/!skills ":  `/\#notes/\!skills\ /`,
		`back\slash/skill`: `/back\\slash/skill/`,
	}
	for dir, want := range tests {
		if got := gitignoreLine(dir); got != want {
			t.Errorf("gitignoreLine(%q) = %q, want %q", dir, got, want)
		}
	}
}
