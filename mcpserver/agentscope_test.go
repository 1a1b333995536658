package mcpserver

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/packs"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// publishPackSkill publishes the skill greet of a pack served over file://, stored with the
// prefix learned- so that its name matches the default agents' scope.
func publishPackSkill(t *testing.T, dir string) string {
	t.Helper()
	src := filepath.Join(t.TempDir(), "packsrc")
	testenv.WriteFiles(t, src, map[string]string{"skills/greet/SKILL.md": testenv.SkillMD("greet", cleanLine)})
	testenv.Git(t, t.TempDir(), "init", "-q", "-b", "main", src)
	testenv.CommitAll(t, src, "pack v1")
	p := policy.Pack{Name: "demo", URL: "file://" + src, Ref: "main", Prefix: "learned-"}
	if _, err := packs.Add(lifecycletest.Open(t, dir), p, ada); err != nil {
		t.Fatal(err)
	}
	res, err := packs.Update(lifecycletest.Open(t, dir), "demo", packs.UpdateOptions{ActOptions: ada})
	if err != nil || len(res) != 1 || res[0].Error != "" || len(res[0].Candidates) != 1 {
		t.Fatalf("pack update: %+v, %v", res, err)
	}
	id := res[0].Candidates[0].ID
	lifecycletest.ApproveAsLead(t, dir, id)
	if _, err := lifecycletest.Open(t, dir).Publish(id, "", lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	return "learned-greet"
}

// TestAgentScope drives a session in autonomous mode: the agent's low-risk patches of a
// person's skill and of a pack's skill are held for a person, its publish and rollback of
// them are refused with the reason, while a learned-* skill of its own is patched at once.
// get_mode and the tool descriptions tell the agent so.
func TestAgentScope(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	publishSkill(t, dir, "dates", cleanLine)
	publishSkill(t, dir, "dates", cleanLine, "Version two.")
	publishSkill(t, dir, "learned-dates", cleanLine)
	pack := publishPackSkill(t, dir)
	setMode(t, dir, policy.ModeAutonomous)
	c := connect(t, dir)

	var mode modeOut
	c.ok("get_mode", map[string]any{}, &mode)
	if strings.Join(mode.AgentScope, ",") != "learned-*" || !strings.Contains(strings.Join(mode.NeedsPerson, "\n"), "outside the agents' scope") {
		t.Fatalf("get_mode: %+v", mode)
	}
	tools, err := c.cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		switch tool.Name {
		case "create_candidate", "delete_candidate", "publish_candidate", "rollback_skill":
			if !strings.Contains(tool.Description, "metadata.managed-by: skillgit") || !strings.Contains(tool.Description, "skill pack's skill") {
				t.Errorf("%s does not say what an agent may touch: %s", tool.Name, tool.Description)
			}
		}
	}

	// Each patch has a body of its own, so neither is taken for a duplicate of the other.
	bodies := map[string]string{"dates": cleanLine, pack: "Greet the user by name and wish them a good morning."}
	for _, name := range []string{"dates", pack} {
		var out actionOut
		c.ok("create_candidate", map[string]any{"files": []map[string]any{{"path": "SKILL.md",
			"content": "---\nname: " + name + "\ndescription: Helps.\nmetadata:\n  managed-by: skillgit\n---\n# " + name + "\n\n" + bodies[name] + "\n\nAlso the week.\n"}}}, &out)
		if out.State != "open" || out.Risk != "low" || len(out.Auto) != 0 {
			t.Fatalf("agent patch of %s: %+v", name, out)
		}
		msg := c.fails("publish_candidate", map[string]any{"id": out.ID})
		if !strings.Contains(msg, "refused") || !strings.Contains(msg, name+" is") || !strings.Contains(msg, "a person must approve and publish it") {
			t.Fatalf("agent publish of %s: %s", name, msg)
		}
		if msg := c.fails("rollback_skill", map[string]any{"name": name}); !strings.Contains(msg, "an agent cannot roll it back: "+name+" is") {
			t.Fatalf("agent rollback of %s: %s", name, msg)
		}
		var read readSkillOut
		c.ok("read_skill", map[string]any{"name": name}, &read)
		if strings.Contains(read.Content, "Also the week.") || strings.Contains(read.Content, "managed-by") {
			t.Fatalf("%s changed by a refused agent:\n%s", name, read.Content)
		}
	}
	if !strings.Contains(c.fails("rollback_skill", map[string]any{"name": "dates"}), "dates is not in the agents' scope (agent_scope: learned-*, or metadata.managed-by: skillgit)") {
		t.Fatal("the refusal of a person's skill does not name the scope")
	}

	var out actionOut
	c.ok("create_candidate", map[string]any{"name": "learned-dates", "description": "Counts days.", "body": "# Day counts\n\nSubtract two epoch times from date +%s and divide by 86400."}, &out)
	if out.State != "published" {
		t.Fatalf("agent patch of learned-dates: %+v", out)
	}
	fsck(t, dir)
}
