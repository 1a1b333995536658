package mcpserver

import (
	"slices"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// files is the files argument of a one-file skill folder.
func files(name string, body ...string) []map[string]string {
	return []map[string]string{{"path": "SKILL.md", "content": testenv.SkillMD(name, body...)}}
}

// TestManualMode checks that in manual mode an agent's candidate stays open and its publish
// is refused with what a person must do.
func TestManualMode(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	publishSkill(t, dir, "dates", cleanLine)
	c := connect(t, dir)
	var out actionOut
	c.ok("create_candidate", map[string]any{"files": files("dates", cleanLine, "Also print the week.")}, &out)
	if out.State != "open" || out.Change != "patch" || out.Risk != "low" || len(out.Auto) != 0 {
		t.Fatalf("create_candidate in manual mode: %+v", out)
	}
	msg := c.fails("publish_candidate", map[string]any{"id": out.ID})
	for _, want := range []string{out.ID, "refused", "skillgit approve " + out.ID, "the mode is manual"} {
		if !strings.Contains(msg, want) {
			t.Errorf("refusal %q does not say %q", msg, want)
		}
	}
	if got := lifecycletest.Open(t, dir).Tip(); strings.Contains(gitOut(t, dir, "log", "--format=%B", "-1", got.String()), out.ID) {
		t.Fatalf("the refused publish moved main")
	}
}

// TestMediumRiskNeedsPerson checks that no mode lets an agent publish a medium-risk change,
// not even after a person approved it.
func TestMediumRiskNeedsPerson(t *testing.T) {
	for _, mode := range []policy.Mode{policy.ModeAssisted, policy.ModeAutonomous} {
		t.Run(string(mode), func(t *testing.T) {
			dir := lifecycletest.NewRepo(t)
			publishSkill(t, dir, "dates", cleanLine)
			setMode(t, dir, mode)
			c := connect(t, dir)
			var out actionOut
			c.ok("create_candidate", map[string]any{"files": files("dates", cleanLine, mediumLine)}, &out)
			if out.Risk != "medium" || out.State != "open" || len(out.Auto) != 0 || len(out.Findings) == 0 ||
				!strings.Contains(out.Next, "medium risk") {
				t.Fatalf("medium-risk patch: %+v", out)
			}
			msg := c.fails("publish_candidate", map[string]any{"id": out.ID})
			if !strings.Contains(msg, "medium risk") && !strings.Contains(msg, "the mode is") || !strings.Contains(msg, "skillgit approve "+out.ID) {
				t.Fatalf("publish of a medium-risk candidate: %s", msg)
			}
			if _, err := lifecycletest.Open(t, dir).Approve(out.ID, "", lifecycletest.Lead); err != nil {
				t.Fatal(err)
			}
			if msg := c.fails("publish_candidate", map[string]any{"id": out.ID}); !strings.Contains(msg, out.ID) {
				t.Fatalf("agent publish after a person's approval: %s", msg)
			}
			if _, err := lifecycletest.Open(t, dir).Publish(out.ID, "", lifecycletest.Lead); err != nil {
				t.Fatalf("a person's publish: %v", err)
			}
		})
	}
}

// TestAutonomousMode checks that in autonomous mode a low-risk patch goes through to the
// publish branch, from create_candidate and from patch_candidate, and a new skill only to
// canary.
func TestAutonomousMode(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	publishSkill(t, dir, "learned-dates", cleanLine)
	setMode(t, dir, policy.ModeAutonomous)
	c := connect(t, dir)

	var out actionOut
	c.ok("create_candidate", map[string]any{"name": "learned-dates", "description": "Prints dates and weeks.", "body": "# Dates\n\n" + cleanLine + "\n\nAlso the week."}, &out)
	if out.State != "published" || out.Channel != "" && out.Channel != "main" || !hasLine(out.Auto, "published to main") {
		t.Fatalf("low-risk patch in autonomous mode: %+v", out)
	}
	assertPublished(t, c, "learned-dates", "Also the week.")

	c.ok("create_candidate", map[string]any{"files": files("learned-dates", cleanLine, mediumLine)}, &out)
	if out.State != "open" {
		t.Fatalf("medium-risk patch: %+v", out)
	}
	c.ok("patch_candidate", map[string]any{"id": out.ID, "message": "no downloads", "body": "# Dates\n\n" + cleanLine + "\n\nAlso the year."}, &out)
	if out.State != "published" || !hasLine(out.Auto, "published to main") {
		t.Fatalf("patch_candidate to low risk in autonomous mode: %+v", out)
	}
	assertPublished(t, c, "learned-dates", "Also the year.")

	c.ok("create_candidate", map[string]any{"name": "fresh", "description": "A new skill.", "body": "# Fresh\n\n" + cleanLine}, &out)
	if out.State != "canary" || !hasLine(out.Auto, "published to canary") || !strings.Contains(out.Next, "skillgit publish "+out.ID) {
		t.Fatalf("new skill in autonomous mode: %+v", out)
	}
	if msg := c.fails("publish_candidate", map[string]any{"id": out.ID, "channel": "main"}); !strings.Contains(msg, "canary channel only") {
		t.Fatalf("agent publish of a new skill to main: %s", msg)
	}
	fsck(t, dir)
}

// TestAssistedMode checks that in assisted mode a low-risk patch is approved by policy, and
// that publishing it stays with a person.
func TestAssistedMode(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	publishSkill(t, dir, "learned-dates", cleanLine)
	setMode(t, dir, policy.ModeAssisted)
	c := connect(t, dir)
	var out actionOut
	c.ok("create_candidate", map[string]any{"files": files("learned-dates", cleanLine, "Also the week.")}, &out)
	if out.State != "approved" || !hasLine(out.Auto, "approved by policy assisted") || !strings.Contains(out.Next, "skillgit publish "+out.ID) {
		t.Fatalf("low-risk patch in assisted mode: %+v", out)
	}
	msg := c.fails("publish_candidate", map[string]any{"id": out.ID})
	if !strings.Contains(msg, "the mode is assisted") || !strings.Contains(msg, "skillgit publish "+out.ID) {
		t.Fatalf("agent publish in assisted mode: %s", msg)
	}
	if _, err := lifecycletest.Open(t, dir).Publish(out.ID, "", lifecycletest.Lead); err != nil {
		t.Fatalf("a person publishes the approved patch: %v", err)
	}
	assertPublished(t, c, "learned-dates", "Also the week.")
}

// TestCommitsCarryViaAndIdentity checks the trailer and the author of commits made through
// the server, with the identity from Options and from SKILLGIT_AUTHOR.
func TestCommitsCarryViaAndIdentity(t *testing.T) {
	for _, tc := range []struct{ name, option, env, want string }{
		{"option", agentID, "", agentID},
		{"environment", "", "Env Agent <env@example.com>", "Env Agent <env@example.com>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := lifecycletest.NewRepo(t)
			t.Setenv(lifecycle.AuthorEnv, tc.env)
			c := connectWith(t, dir, Options{Author: tc.option})
			var out actionOut
			c.ok("create_candidate", map[string]any{"name": "greeting", "description": "Greets.", "body": "Say hello."}, &out)
			log := gitOut(t, dir, "log", "-1", "--format=%an <%ae>|%cn <%ce>%n%B", "candidate/"+out.ID)
			if !strings.HasPrefix(log, tc.want+"|"+tc.want+"\n") || !strings.Contains(log, "\nSkillgit-Via: mcp\n") ||
				!strings.Contains(log, "Skillgit-Candidate: "+out.ID) {
				t.Fatalf("propose commit:\n%s", log)
			}
		})
	}
}

func hasLine(lines []string, prefix string) bool {
	return slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, prefix) })
}

// assertPublished reads a skill through the server and checks its body holds want.
func assertPublished(t *testing.T, c *client, name, want string) {
	t.Helper()
	var read readSkillOut
	c.ok("read_skill", map[string]any{"name": name}, &read)
	if !strings.Contains(read.Content, want) {
		t.Fatalf("published %s does not hold %q:\n%s", name, want, read.Content)
	}
}
