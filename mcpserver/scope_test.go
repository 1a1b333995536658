package mcpserver

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// TestCandidateOutOfScope checks that review_candidate shows the paths a candidate's branch
// changes beyond its skill and blocks it, and that publish_candidate refuses it, naming them,
// although the commit that added them came after an approval and the mode would publish the
// candidate's own change on its own.
func TestCandidateOutOfScope(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	publishSkill(t, dir, "dates", cleanLine)
	publishSkill(t, dir, "victim", cleanLine)
	src := filepath.Join(t.TempDir(), "dates")
	writeFile(t, filepath.Join(src, "SKILL.md"), testenv.SkillMD("dates", cleanLine, "Print it in UTC."))
	res, err := lifecycletest.Open(t, dir).Propose(lifecycle.ProposeOptions{ActOptions: ada, From: src})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lifecycletest.Open(t, dir).Approve(res.ID, "", lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	gitOut(t, dir, "checkout", "-q", "candidate/"+res.ID)
	writeFile(t, filepath.Join(dir, "skills", "victim", "SKILL.md"), testenv.SkillMD("victim", cleanLine, "Patched on the side."))
	writeFile(t, filepath.Join(dir, "skills", "stow", "SKILL.md"), testenv.SkillMD("stow", cleanLine))
	gitOut(t, dir, "add", "-A")
	gitOut(t, dir, "commit", "-q", "-m", "tidy up")
	gitOut(t, dir, "checkout", "-q", "main")
	setMode(t, dir, policy.ModeAutonomous)
	c := connect(t, dir)
	want := []string{"skills/stow", "skills/victim"}

	var review reviewOut
	c.ok("review_candidate", map[string]any{"id": res.ID}, &review)
	if review.Verdict != "BLOCKED" || !slices.Equal(review.OutOfScope, want) || !strings.HasPrefix(review.Next, "refused") {
		t.Errorf("review_candidate: verdict %s, out of scope %v, next %q; want BLOCKED with %v", review.Verdict, review.OutOfScope, review.Next, want)
	}
	for _, f := range review.Files {
		if !strings.HasPrefix(f.Path, "skills/dates/") {
			t.Errorf("review_candidate shows %s, which publish would not merge", f.Path)
		}
	}
	msg := c.fails("publish_candidate", map[string]any{"id": res.ID})
	for _, p := range want {
		if !strings.Contains(msg, p) || !strings.Contains(msg, "outside its scope") {
			t.Errorf("publish_candidate: %s; want %s named as outside its scope", msg, p)
		}
	}
	if _, err := lifecycletest.Open(t, dir).Published().Find("stow"); err == nil {
		t.Error("stow is published")
	}
}

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
