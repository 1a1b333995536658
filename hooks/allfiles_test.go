package hooks_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/hooks"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
)

// TestPreCommitAllFiles runs `skillgit hook pre-commit --all-files` and `--files` on a
// repository where a malicious skill was committed past the hooks: the plain hook, which sees
// nothing staged, lets it be; the wider scopes audit the committed skill and refuse.
func TestPreCommitAllFiles(t *testing.T) {
	h := newHarness(t)
	repo := filepath.Join(h.dir, "repo")
	h.must(h.dir, "skillgit", "init", "--no-hooks", repo)
	testenv.WriteFiles(t, repo, map[string]string{
		"skills/good/SKILL.md":   goodSkill("good"),
		"skills/sneaky/SKILL.md": evilSkill("sneaky"),
		"skills/sneaky/notes.md": "Notes.\n",
	})
	h.git(repo, "add", "skills")
	h.git(repo, "commit", "-q", "--no-verify", "-m", "add good and sneaky")
	sub := filepath.Join(repo, "skills")
	tests := []struct {
		name string
		dir  string
		args []string
		code int
	}{
		{"nothing staged", repo, nil, 0},
		{"all files", repo, []string{"--all-files"}, hooks.ExitBlocked},
		{"a file of the skill", repo, []string{"--files", "skills/sneaky/notes.md"}, hooks.ExitBlocked},
		{"from a subfolder", sub, []string{"--files", "sneaky/SKILL.md"}, hooks.ExitBlocked},
		{"files of other skills only", repo, []string{"--files", "skills/good/SKILL.md", ".skillgit.yaml"}, 0},
		{"no files", repo, []string{"--files"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := h.run(tt.dir, "", nil, "skillgit", append([]string{"hook", "pre-commit"}, tt.args...)...)
			if res.code != tt.code {
				t.Fatalf("exit %d, want %d\n%s", res.code, tt.code, res.stderr)
			}
			if tt.code != 0 && !strings.Contains(res.stderr, "sneaky: skills/sneaky/SKILL.md:5 SG-EXE-005") {
				t.Errorf("stderr does not name the finding:\n%s", res.stderr)
			}
		})
	}
	h.git(repo, "rm", "-q", "-r", "skills/sneaky")
	h.git(repo, "commit", "-q", "--no-verify", "-m", "remove sneaky")
	if res := h.run(repo, "", nil, "skillgit", "hook", "pre-commit", "--all-files"); res.code != 0 {
		t.Errorf("--all-files on a benign tree: exit %d\n%s", res.code, res.stderr)
	}
}

func TestParsePreCommitArgs(t *testing.T) {
	tests := []struct {
		args    []string
		want    auditrun.StagedScope
		wantErr bool
	}{
		{nil, auditrun.StagedScope{}, false},
		{[]string{"--all-files"}, auditrun.StagedScope{All: true}, false},
		{[]string{"--files", "a", "--all-files", "-x"}, auditrun.StagedScope{Files: []string{"a", "--all-files", "-x"}}, false},
		{[]string{"--all-files", "--files", "b"}, auditrun.StagedScope{All: true, Files: []string{"b"}}, false},
		{[]string{"--bogus"}, auditrun.StagedScope{}, true},
		{[]string{"file"}, auditrun.StagedScope{}, true},
	}
	for _, tt := range tests {
		got, err := hooks.ParsePreCommitArgs(tt.args)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParsePreCommitArgs(%q): error %v, want error %v", tt.args, err, tt.wantErr)
			continue
		}
		if !tt.wantErr {
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParsePreCommitArgs(%q) (-want +got):\n%s", tt.args, diff)
			}
		}
	}
}
