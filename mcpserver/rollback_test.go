package mcpserver

import (
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// TestRollback rolls a skill back to its previous version in autonomous mode, by name and by
// publish commit, and checks the audit trail.
func TestRollback(t *testing.T) {
	for _, byCommit := range []bool{false, true} {
		t.Run(map[bool]string{false: "name", true: "commit"}[byCommit], func(t *testing.T) {
			dir := lifecycletest.NewRepo(t)
			publishSkill(t, dir, "learned-dates", cleanLine)
			publishSkill(t, dir, "learned-dates", cleanLine, "Version two.")
			setMode(t, dir, policy.ModeAutonomous)
			c := connect(t, dir)
			args := map[string]any{"name": "learned-dates"}
			if byCommit {
				log, err := lifecycletest.Open(t, dir).Log("learned-dates")
				if err != nil {
					t.Fatal(err)
				}
				args["commit"] = log[0].Commit[:8]
			}
			var rb rollbackOut
			c.ok("rollback_skill", args, &rb)
			var read readSkillOut
			c.ok("read_skill", map[string]any{"name": "learned-dates"}, &read)
			if read.Content != testenv.SkillMD("learned-dates", cleanLine) {
				t.Fatalf("after rollback:\n%s", read.Content)
			}
			log, err := lifecycletest.Open(t, dir).Log("learned-dates")
			if err != nil {
				t.Fatal(err)
			}
			if log[0].Action != "rollback" || log[0].Commit != rb.Commit || log[0].Who != agentID || log[1].Commit != rb.Reverts {
				t.Fatalf("log after rollback: %+v\nresult %+v", log[:2], rb)
			}
			commit := gitOut(t, dir, "log", "-1", "--format=%an <%ae>%n%B", "main")
			if !strings.HasPrefix(commit, agentID) || !strings.Contains(commit, "This reverts commit "+rb.Reverts) ||
				!strings.Contains(commit, "\nSkillgit-Via: mcp\n") || rb.Channel != "main" {
				t.Fatalf("rollback commit:\n%s", commit)
			}
			if msg := c.fails("rollback_skill", args); !strings.Contains(msg, "learned-dates") {
				t.Fatalf("second rollback of the same publish: %s", msg)
			}
			fsck(t, dir)
		})
	}
}

// TestRollbackFollowsMode lets an agent roll back only where the mode publishes without a
// person, and checks that get_mode says so: refused in manual and assisted mode, allowed for
// a low-risk earlier version in autonomous mode, refused there when it would delete the skill.
func TestRollbackFollowsMode(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	publishSkill(t, dir, "learned-dates", cleanLine)
	publishSkill(t, dir, "learned-dates", cleanLine, "Version two.")
	args := map[string]any{"name": "learned-dates"}
	for _, m := range []policy.Mode{policy.ModeManual, policy.ModeAssisted} {
		if m != policy.ModeManual {
			setMode(t, dir, m)
		}
		c := connect(t, dir)
		var mode modeOut
		c.ok("get_mode", map[string]any{}, &mode)
		if strings.Contains(strings.Join(mode.AgentMay, "\n"), "rollback_skill") || !strings.Contains(strings.Join(mode.NeedsPerson, "\n"), "every rollback") {
			t.Fatalf("get_mode in %s mode: %+v", m, mode)
		}
		if msg := c.fails("rollback_skill", args); !strings.Contains(msg, "refused") || !strings.Contains(msg, "skillgit rollback learned-dates") {
			t.Fatalf("rollback_skill in %s mode: %s", m, msg)
		}
	}
	var read readSkillOut
	connect(t, dir).ok("read_skill", args, &read)
	if !strings.Contains(read.Content, "Version two.") {
		t.Fatalf("a refused rollback changed the skill:\n%s", read.Content)
	}
	setMode(t, dir, policy.ModeAutonomous)
	c := connect(t, dir)
	var mode modeOut
	c.ok("get_mode", map[string]any{}, &mode)
	if !strings.Contains(strings.Join(mode.AgentMay, "\n"), "rollback_skill") || !strings.Contains(strings.Join(mode.NeedsPerson, "\n"), "a rollback that removes a skill") {
		t.Fatalf("get_mode in autonomous mode: %+v", mode)
	}
	var rb rollbackOut
	c.ok("rollback_skill", args, &rb)
	if msg := c.fails("rollback_skill", args); !strings.Contains(msg, "deletions") {
		t.Fatalf("rollback_skill that would delete the skill: %s", msg)
	}
	c.ok("read_skill", args, &read)
	if read.Content != testenv.SkillMD("learned-dates", cleanLine) {
		t.Fatalf("after the rollbacks:\n%s", read.Content)
	}
	fsck(t, dir)
}

// TestConcurrentCalls runs tool calls from many goroutines at once; the race detector and
// git fsck check that the server serializes them.
func TestConcurrentCalls(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	publishSkill(t, dir, "dates", cleanLine)
	setMode(t, dir, policy.ModeAutonomous)
	c := connect(t, dir)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for _, call := range []mcp.CallToolParams{
				{Name: "match_skills", Arguments: map[string]any{"task": "print the date"}},
				{Name: "create_candidate", Arguments: map[string]any{"name": "dates", "description": "Prints dates.",
					"body": "# Dates\n\n" + cleanLine + "\n\nVariant " + string(rune('a'+i)) + "."}},
				{Name: "list_candidates", Arguments: map[string]any{"state": "all"}},
			} {
				if _, err := c.cs.CallTool(t.Context(), &call); err != nil {
					t.Errorf("%s: %v", call.Name, err)
				}
			}
		})
	}
	wg.Wait()
	var cands listCandidatesOut
	c.ok("list_candidates", map[string]any{"state": "all"}, &cands)
	if cands.Total != 9 {
		t.Fatalf("candidates after 8 concurrent proposals and the first publish: %d", cands.Total)
	}
	fsck(t, dir)
}
