package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
)

// TestReadTools calls the tools that only read, and checks their structured output and text.
func TestReadTools(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	publishSkill(t, dir, "dates", cleanLine)
	c := connect(t, dir)

	var list listSkillsOut
	c.ok("list_skills", map[string]any{}, &list)
	if list.Total != 1 || len(list.Skills) != 1 || list.Skills[0] != (skillEntry{"dates", "Helps with dates.", "skills/dates"}) {
		t.Fatalf("list_skills: %+v", list)
	}

	var read readSkillOut
	text := c.ok("read_skill", map[string]any{"name": "dates"}, &read)
	if !strings.HasPrefix(text, "Reading: dates\nBase directory: ") || !strings.Contains(text, cleanLine) ||
		!strings.HasSuffix(text, "\nSkill read: dates\n") || read.Content != testenv.SkillMD("dates", cleanLine) || read.Path != "skills/dates" {
		t.Fatalf("read_skill: text %q, output %+v", text, read)
	}
	// The base directory is the published copy, never the working tree, which may hold edits.
	if got, err := os.ReadFile(filepath.Join(read.BaseDir, "SKILL.md")); err != nil || string(got) != read.Content ||
		strings.HasPrefix(read.BaseDir, dir+string(filepath.Separator)+"skills") {
		t.Fatalf("read_skill base_dir %s: %q, %v; want the published copy", read.BaseDir, got, err)
	}

	var match matchSkillsOut
	c.ok("match_skills", map[string]any{"task": "print the date", "hints": []string{"nope"}}, &match)
	if len(match.Matches) != 1 || match.Matches[0].Name != "dates" || match.Matches[0].Reason == "" ||
		match.Matches[0].Score <= 0 || strings.Join(match.UnknownHints, ",") != "nope" {
		t.Fatalf("match_skills: %+v", match)
	}

	var mode modeOut
	c.ok("get_mode", map[string]any{}, &mode)
	if mode.Mode != "manual" || mode.ApprovalsRequired != 1 || mode.AllowSelf || mode.SignedApprovals || mode.Audit != "on" || len(mode.NeedsPerson) == 0 {
		t.Fatalf("get_mode: %+v", mode)
	}
}

// TestCandidateTools calls the candidate tools in manual mode: create, list, review, patch,
// delete, and a publish that policy refuses.
func TestCandidateTools(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	publishSkill(t, dir, "dates", cleanLine)
	c := connect(t, dir)

	var created actionOut
	c.ok("create_candidate", map[string]any{"name": "greeting", "description": "Greets people politely.",
		"body": "# Greeting\n\nSay hello.", "message": "learned from a session"}, &created)
	if !strings.HasPrefix(created.ID, "greeting-") || created.Risk != "low" || created.State != "open" ||
		created.Change != "create" || len(created.Auto) != 0 || !strings.Contains(created.Next, "skillgit approve "+created.ID) {
		t.Fatalf("create_candidate: %+v", created)
	}

	var cands listCandidatesOut
	c.ok("list_candidates", map[string]any{}, &cands)
	if cands.Total != 1 || cands.Candidates[0].ID != created.ID || cands.Candidates[0].Author != agentID {
		t.Fatalf("list_candidates: %+v", cands)
	}

	var review reviewOut
	c.ok("review_candidate", map[string]any{"id": created.ID}, &review)
	if review.Verdict != "PASS" || len(review.Files) != 1 || review.Files[0] != (fileOut{"skills/greeting/SKILL.md", "added"}) ||
		!strings.Contains(review.Diff, "+Say hello.") || review.Author != agentID || review.State != "open" {
		t.Fatalf("review_candidate: %+v", review)
	}

	var patched actionOut
	c.ok("patch_candidate", map[string]any{"id": created.ID, "message": "be warmer", "body": "# Greeting\n\nSay hello warmly."}, &patched)
	if patched.ID != created.ID || patched.State != "open" || patched.Change != "create" {
		t.Fatalf("patch_candidate: %+v", patched)
	}
	c.ok("review_candidate", map[string]any{"id": created.ID}, &review)
	if !strings.Contains(review.Diff, "+Say hello warmly.") || !strings.Contains(review.Diff, "+description: Greets people politely.") {
		t.Fatalf("review after patch: %s", review.Diff)
	}

	var deleted actionOut
	c.ok("delete_candidate", map[string]any{"name": "dates", "message": "obsolete"}, &deleted)
	if deleted.Change != "delete" || deleted.State != "open" || deleted.Skill != "dates" {
		t.Fatalf("delete_candidate: %+v", deleted)
	}

	msg := c.fails("publish_candidate", map[string]any{"id": created.ID})
	if !strings.Contains(msg, created.ID) || !strings.Contains(msg, "skillgit approve "+created.ID) {
		t.Fatalf("publish_candidate in manual mode: %s", msg)
	}

	fsck(t, dir)
}
