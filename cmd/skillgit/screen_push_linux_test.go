package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
)

// TestScreenPushProgress pushes twelve skills to a server with skillgit's pre-receive hook from
// a terminal, through tmux: the push's own audit and the server's are each one line on the
// screen, rewritten in place until it says "done.", and the server's comes after "remote:".
func TestScreenPushProgress(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is needed; scripts/test.sh installs it")
	}
	home := testenv.Hermetic(t, nil)
	work := t.TempDir()
	skillgit := skillgitCommand(t)
	bin := filepath.Dir(skillgit)
	run := func(dir, name string, args ...string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
	}
	run(work, skillgit, "init", "--bare", "srv.git")
	run(work, skillgit, "init", "--no-hooks", "repo")
	repo := filepath.Join(work, "repo")
	run(repo, "git", "remote", "add", "origin", "../srv.git")
	run(repo, skillgit, "push")
	files := map[string]string{}
	for i := range 12 {
		name := fmt.Sprintf("tidy%d", i)
		files["skills/"+name+"/SKILL.md"] = testenv.SkillMD(name, "Run gofmt -l . before every commit.")
	}
	testenv.WriteFiles(t, repo, files)
	testenv.CommitAll(t, repo, "twelve skills")

	s := newScreen(t, bin, home, 120, 20)
	out := s.run("cd "+repo+" && skillgit push", false)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{"auditing skills: 12/12, done.", "remote: skillgit: auditing skills: 12/12, done."}
	if len(lines) < 3 || strings.TrimSpace(lines[0]) != want[0] || strings.TrimSpace(lines[1]) != want[1] ||
		!strings.HasPrefix(lines[2], "origin: pushed main") {
		t.Errorf("the screen after skillgit push shows:\n%s\nwant the lines %q, then origin: pushed main", out, want)
	}
}
