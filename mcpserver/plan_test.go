package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/lifecycletest"
)

// TestMatchSkillsPlan calls match_skills with a plan, relative to the working tree and
// absolute, and with a step whose limit comes from the configuration.
func TestMatchSkillsPlan(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	for _, name := range []string{"dates", "times", "zones"} {
		publishSkill(t, dir, name, cleanLine)
	}
	cfg := filepath.Join(dir, ".skillgit.yaml")
	appendFile(t, cfg, "selection:\n  implementation: 3\n")
	gitOut(t, dir, "commit", "-q", "-am", "selection limits")
	writeFile(t, filepath.Join(dir, "docs", "plan.md"), "# Work\n- [x] read\n- [ ] sort dates, times and zones, see $zones\n## Verification\n- [ ] check\n")
	done := filepath.Join(t.TempDir(), "done.md")
	writeFile(t, done, "- [x] all\n- [ ]? maybe\n")
	c := connect(t, dir)

	var got matchSkillsOut
	c.ok("match_skills", map[string]any{"plan": "docs/plan.md", "step": "implementation"}, &got)
	if got.Task == nil || *got.Task != (planTaskOut{Text: "sort dates, times and zones, see $zones", Line: 3, Heading: "Work"}) ||
		got.Step != "implementation" || len(got.Matches) != 3 || got.Matches[0].Name != "zones" || !got.Matches[0].Hint {
		t.Fatalf("match_skills with a plan: %+v", got)
	}
	got = matchSkillsOut{}
	c.ok("match_skills", map[string]any{"plan": filepath.Join(dir, "docs", "plan.md"), "step": "review"}, &got)
	if got.Task == nil || got.Task.Line != 3 || len(got.Matches) != 1 || got.Matches[0].Name != "zones" {
		t.Fatalf("match_skills with an absolute plan and the review step: %+v", got)
	}
	got = matchSkillsOut{}
	c.ok("match_skills", map[string]any{"plan": done, "hints": []string{"dates"}}, &got)
	if !got.PlanDone || got.Task != nil || len(got.Matches) != 0 {
		t.Fatalf("match_skills with a plan that is done: %+v", got)
	}
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"plan": "missing.md"}, "missing.md"},
		{map[string]any{}, "give a task, or a plan"},
		{map[string]any{"task": "dates", "plan": "docs/plan.md"}, "leave out task"},
		{map[string]any{"task": "dates", "step": "deploy"}, "step"},
	} {
		if msg := c.fails("match_skills", tc.args); !strings.Contains(msg, tc.want) {
			t.Errorf("match_skills %v: %q does not say %q", tc.args, msg, tc.want)
		}
	}
}

// TestMatchSkillsPlanTooLarge refuses a plan over the size limit, naming the limit.
func TestMatchSkillsPlanTooLarge(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	writeFile(t, filepath.Join(dir, "big.md"), strings.Repeat("- [ ] x\n", 600000))
	msg := connect(t, dir).fails("match_skills", map[string]any{"plan": "big.md"})
	if !strings.Contains(msg, "big.md") || !strings.Contains(msg, "4 MiB") {
		t.Fatalf("match_skills with a large plan: %q", msg)
	}
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}
