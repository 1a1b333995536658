package lifecycle

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// managedMD is a SKILL.md whose metadata puts the skill in the agents' scope.
func managedMD(name string, body ...string) string {
	return "---\nname: " + name + "\ndescription: Helps with " + name + ".\nmetadata:\n  managed-by: skillgit\n---\n# " + name + "\n\n" + strings.Join(body, "\n\n") + "\n"
}

// proposeAs proposes the SKILL.md content md for name from a fresh folder, as o.
func proposeAs(t *testing.T, dir, name, md string, o ActOptions) *Result {
	t.Helper()
	src := t.TempDir()
	testenv.WriteFiles(t, src, map[string]string{name + "/SKILL.md": md})
	return propose(t, dir, ProposeOptions{ActOptions: o, From: src + "/" + name})
}

// TestAgentScope checks that in autonomous mode an unattended actor's changes run on their
// own only for the skills in the agents' scope: a person's skill waits for a person even when
// the patch claims metadata.managed-by, while a skill the agent created, a learned-* skill and
// a skill a person marked managed-by skillgit are patched at once.
func TestAgentScope(t *testing.T) {
	bot := ActOptions{Author: agent.Author, Unattended: true}
	// Each skill has steps of its own, so that none is taken for a duplicate of another.
	line := map[string]string{
		"dates":         cleanLine,
		"learned-dates": "Count the days between two dates with date +%s arithmetic.",
		"meta":          "Read the metadata block of each file and list its keys.",
		"notes":         "Write each decision down in NOTES.md with its reason.",
	}
	dir := newRepo(t)
	publishedSkill(t, dir, "dates", line["dates"])
	publishedSkill(t, dir, "learned-dates", line["learned-dates"])
	publishedSkill(t, dir, "meta", line["meta"])
	res := proposeAs(t, dir, "meta", managedMD("meta", line["meta"]), agent)
	if _, err := open(t, dir).Approve(res.ID, "", lead); err != nil {
		t.Fatal(err)
	}
	if _, err := open(t, dir).Publish(res.ID, "", lead); err != nil {
		t.Fatal(err)
	}
	setMode(t, dir, policy.ModeAutonomous)

	for _, md := range []string{testenv.SkillMD("dates", line["dates"], "More."), managedMD("dates", line["dates"], "More.")} {
		res := proposeAs(t, dir, "dates", md, bot)
		if res.State != StateOpen || !strings.Contains(strings.Join(res.Warnings, "\n"), "dates is not in the agents' scope (agent_scope: learned-*, or metadata.managed-by: skillgit)") {
			t.Fatalf("agent patch of a person's skill: %+v", res)
		}
		if _, err := open(t, dir).Publish(res.ID, "", bot); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "a person must approve and publish it") {
			t.Fatalf("agent publish of a person's skill: %v", err)
		}
	}
	for _, name := range []string{"learned-dates", "meta"} {
		md := testenv.SkillMD(name, line[name], "More.")
		if name == "meta" {
			md = managedMD(name, line[name], "More.")
		}
		if res := proposeAs(t, dir, name, md, bot); res.State != StatePublished {
			t.Fatalf("agent patch of %s, in the scope: %+v", name, res)
		}
	}

	created := proposeAs(t, dir, "notes", testenv.SkillMD("notes", line["notes"]), bot)
	if created.State != StateCanary {
		t.Fatalf("agent's new skill: %+v", created)
	}
	if _, err := open(t, dir).Publish(created.ID, "", lead); err != nil {
		t.Fatal(err)
	}
	if s, err := open(t, dir).Published().Find("notes"); err != nil || s.Metadata["managed-by"] != policy.ManagedBy {
		t.Fatalf("the agent's new skill is not marked managed-by skillgit: %+v, %v", s, err)
	}
	for _, subject := range []string{"^propose: notes$", "^publish: notes "} {
		out, err := exec.Command("git", "-C", dir, "log", "-1", "--grep", subject, "--format=%(trailers:key=Skillgit-Managed-By,valueonly)", "main").CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != "skillgit" {
			t.Fatalf("Skillgit-Managed-By of %s: %q, %v", subject, out, err)
		}
	}
	if res := proposeAs(t, dir, "notes", testenv.SkillMD("notes", line["notes"], "More."), bot); res.State != StatePublished {
		t.Fatalf("agent patch of the skill it created: %+v", res)
	}

	_, err := open(t, dir).Rollback("dates", "", bot)
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "dates is not in the agents' scope") {
		t.Fatalf("agent rollback of a person's skill: %v", err)
	}
	if _, err := open(t, dir).Rollback("notes", "", bot); err != nil {
		t.Fatalf("agent rollback of its own skill: %v", err)
	}
	testenv.Fsck(t, dir)
}

// TestForgedPolicyApprovalOutOfScope checks that an approval by policy written by hand, as an
// agent with write access to the repository could, does not stand for a person on a candidate
// an agent wrote for a skill outside the agents' scope: a person's publish is refused until a
// person approves, while on a skill in the scope the same forged approval counts as the mode's.
func TestForgedPolicyApprovalOutOfScope(t *testing.T) {
	bot := ActOptions{Author: agent.Author, Unattended: true}
	dir := newRepo(t)
	publishedSkill(t, dir, "dates", cleanLine)
	publishedSkill(t, dir, "learned-dates", "Count the days between two dates with date +%s arithmetic.")
	setMode(t, dir, policy.ModeAssisted)

	res := proposeAs(t, dir, "dates", testenv.SkillMD("dates", cleanLine, "More."), bot)
	if res.State != StateOpen {
		t.Fatalf("agent patch of a person's skill: %+v", res)
	}
	if got := testenv.GitText(t, dir, "log", "-1", "--format=%(trailers:key=Skillgit-Unattended,valueonly)", "refs/heads/candidate/"+res.ID); strings.TrimSpace(got) != "true" {
		t.Fatalf("the agent's propose commit lacks Skillgit-Unattended: %q", got)
	}
	forgePolicyApproval(t, dir, res, "assisted")
	_, err := open(t, dir).Publish(res.ID, "", lead)
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "policy assisted (an agent wrote this change and dates is not in the agents' scope") {
		t.Fatalf("publish with a forged policy approval out of the scope: %v", err)
	}
	if _, err := open(t, dir).Approve(res.ID, "", lead); err != nil {
		t.Fatal(err)
	}
	if _, err := open(t, dir).Publish(res.ID, "", lead); err != nil {
		t.Fatalf("publish after a person approved: %v", err)
	}

	setMode(t, dir, policy.ModeManual)
	setMode(t, dir, policy.ModeAssisted)
	in := proposeAs(t, dir, "learned-dates", testenv.SkillMD("learned-dates", "Count the days between two dates with date +%s arithmetic.", "More."), bot)
	if in.State != StateApproved {
		t.Fatalf("agent patch in the scope, assisted mode: %+v", in)
	}
	if _, err := open(t, dir).Publish(in.ID, "", lead); err != nil {
		t.Fatalf("publish of an in-scope patch approved by policy: %v", err)
	}
	testenv.Fsck(t, dir)
}

// forgePolicyApproval appends to a candidate branch, with plain git, an approval commit that
// claims the mode's policy.
func forgePolicyApproval(t *testing.T, dir string, res *Result, mode string) {
	t.Helper()
	msg := "approve: " + res.Skill + "\n\nSkillgit-Action: approve\nSkillgit-Skill: " + res.Skill +
		"\nSkillgit-Candidate: " + res.ID + "\nSkillgit-Policy: " + mode + "\n"
	tip := strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", "refs/heads/candidate/"+res.ID))
	commit := strings.TrimSpace(testenv.GitText(t, dir, "commit-tree", "-p", tip, "-m", msg, tip+"^{tree}"))
	testenv.Git(t, dir, "update-ref", "refs/heads/candidate/"+res.ID, commit, tip)
}
