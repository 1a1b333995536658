package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/skillgit/skillgit/internal/testenv"
)

// TestScreenBatchProgress publishes twelve candidates from a terminal, through tmux, with
// SKILLGIT_PROGRESS_DELAY=0 so that the progress line shows from the start: the screen ends
// with every result line whole and "publishing candidates: 12/12, done.", and in what the
// terminal received, the line is erased before each result line is printed. A sync of the
// twelve skills shows its own line.
func TestScreenBatchProgress(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is needed; scripts/test.sh installs it")
	}
	home := testenv.Hermetic(t, nil)
	work := t.TempDir()
	skillgit := skillgitCommand(t)
	ids := batchRepo(t, skillgit, work, 12)

	s := newScreen(t, filepath.Dir(skillgit), home, 120, 30)
	raw := filepath.Join(t.TempDir(), "raw")
	s.tmux("pipe-pane", "-t", "t", "-o", "cat > "+raw)
	out := s.run("cd "+filepath.Join(work, "repo")+" && SKILLGIT_PROGRESS_DELAY=0 skillgit publish --author 'Grace Hopper <grace@example.com>' "+strings.Join(ids, " "), false)

	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	result := regexp.MustCompile(`^Published s[0-9]+ \(candidate s[0-9]+-[0-9a-f]{4}\) to main as [0-9a-f]{7}, risk low$`)
	if len(lines) != len(ids)+1 || lines[len(ids)] != "publishing candidates: 12/12, done." {
		t.Fatalf("the screen after a batch publish shows:\n%s\nwant %d result lines, then publishing candidates: 12/12, done.", out, len(ids))
	}
	for _, l := range lines[:len(ids)] {
		if !result.MatchString(l) {
			t.Errorf("result line %q is not whole", l)
		}
	}

	sent := waitForFile(t, raw, "done-1-marker")
	if n := strings.Count(sent, "\r\x1b[KPublished "); n != len(ids) {
		t.Errorf("%d of %d result lines come after the progress line is erased; the terminal received:\n%q", n, len(ids), sent)
	}
	if !strings.Contains(sent, "publishing candidates: 0/12\r") {
		t.Errorf("the progress line never showed; the terminal received:\n%q", sent)
	}

	// A sync's line ends before its report is printed.
	out = s.run("SKILLGIT_PROGRESS_DELAY=0 skillgit sync --dir ../out", false)
	if lines = strings.Split(out, "\n"); lines[0] != "installing skills: 12/12, done." || strings.Count(out, "\ninstall s") != len(ids) {
		t.Errorf("the screen after a sync shows:\n%s\nwant installing skills: 12/12, done., then the report", out)
	}
}

// batchRepo makes a skill repository in work/repo with n approved candidates of skills s0 to
// s(n-1), and returns their ids.
func batchRepo(t *testing.T, skillgit, work string, n int) []string {
	t.Helper()
	run := skillgitIn(t, skillgit, work)
	run("init", "repo")
	ids := make([]string, n)
	for i := range ids {
		name := fmt.Sprintf("s%d", i)
		dir := filepath.Join(work, "src", name)
		testenv.WriteFiles(t, dir, map[string]string{"SKILL.md": testenv.SkillMD(name, fmt.Sprintf("Step %d: run the %d checks of part %d.", i, i*7, i))})
		ids[i] = run("-C", "repo", "propose", "--from", dir)
	}
	run(append([]string{"-C", "repo", "approve", "--author", "Grace Hopper <grace@example.com>"}, ids...)...)
	return ids
}

// waitForFile waits until the file at path holds want and returns what it holds.
func waitForFile(t *testing.T, path, want string) string {
	t.Helper()
	var b []byte
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if b, _ = os.ReadFile(path); strings.Contains(string(b), want) {
			return string(b)
		}
	}
	t.Fatalf("%s never held %q; it holds:\n%q", path, want, b)
	return ""
}
