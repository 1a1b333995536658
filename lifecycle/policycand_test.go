package lifecycle

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// editConfig rewrites the working tree's .skillgit.yaml with edit applied.
func editConfig(t *testing.T, dir string, edit func(string) string) {
	t.Helper()
	p := filepath.Join(dir, policy.ConfigFile)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(edit(string(data))), 0o644); err != nil {
		t.Fatal(err)
	}
}

func proposeConfig(t *testing.T, dir string, o ActOptions) *Result {
	t.Helper()
	res, err := open(t, dir).ProposeConfig(ProposeOptions{ActOptions: o})
	if err != nil {
		t.Fatalf("ProposeConfig: %v", err)
	}
	return res
}

// TestPolicyCandidateLifecycle checks that a policy change proposed from the working tree is a
// candidate that says what it changes, needs a person other than its author, is published
// exactly, and is in the trail with what it changed.
func TestPolicyCandidateLifecycle(t *testing.T) {
	dir := newRepo(t)
	editConfig(t, dir, func(s string) string { return strings.Replace(s, "mode: manual", "mode: assisted", 1) })
	res := proposeConfig(t, dir, agent)
	if res.Skill != PolicySkill || res.Change != ChangePolicy || !slices.Equal(res.Policy, []string{"mode: manual -> assisted"}) {
		t.Fatalf("ProposeConfig: %+v", res)
	}
	if _, err := open(t, dir).Approve(res.ID, "", agent); !errors.Is(err, ErrRefused) {
		t.Errorf("self-approval: %v; want refused", err)
	}
	if _, err := open(t, dir).Publish(res.ID, "", lead); !errors.Is(err, ErrRefused) {
		t.Errorf("publish without approval: %v; want refused", err)
	}
	rv, err := open(t, dir).Review(res.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(rv.Scope.Declared, []string{policy.ConfigFile}) || len(rv.Files) != 1 || rv.Files[0].Path != policy.ConfigFile {
		t.Errorf("Review: declared %v, files %v; want only %s", rv.Scope.Declared, rv.Files, policy.ConfigFile)
	}
	approveAsLead(t, dir, res.ID)
	if _, err := open(t, dir).Publish(res.ID, "", lead); err != nil {
		t.Fatalf("Publish: %v", err)
	}
	if m := open(t, dir).cfg.Mode; m != policy.ModeAssisted {
		t.Errorf("mode after publish: %s; want assisted", m)
	}
	head := logHead(t, dir)
	if head.Action != actPublish || head.Skill != PolicySkill || !slices.Equal(head.Policy, []string{"mode: manual -> assisted"}) {
		t.Errorf("log head: %+v", head)
	}
	c, err := open(t, dir).Book().Candidate(res.ID)
	if err != nil || c.State != StatePublished {
		t.Errorf("state after publish: %v, %v; want published", c, err)
	}
}

// TestPolicyCandidateOnlyPolicy checks that a policy candidate whose branch also changes a
// skill is refused with the skill named, and that the mode never stands in for a person.
func TestPolicyCandidateOnlyPolicy(t *testing.T) {
	dir := newRepo(t)
	publishedSkill(t, dir, "victim", cleanLine)
	editConfig(t, dir, func(s string) string { return strings.Replace(s, "required: 1", "required: 2", 1) })
	res := proposeConfig(t, dir, agent)
	testenv.Git(t, dir, "checkout", "-q", ".")
	testenv.Git(t, dir, "checkout", "-q", "candidate/"+res.ID)
	testenv.WriteFiles(t, dir, map[string]string{"skills/victim/SKILL.md": testenv.SkillMD("victim", cleanLine, "Patched on the side.")})
	testenv.CommitAll(t, dir, "ride along")
	testenv.Git(t, dir, "checkout", "-q", "main")
	_, err := open(t, dir).Approve(res.ID, "", lead)
	wantRefusal(t, "approve", err, []string{"skills/victim"})

	c := &Candidate{Change: ChangePolicy, Risk: "low", Approvals: []Approval{{Policy: "assisted", Who: Actor{Email: "agent@example.com"}}}}
	if ok, _ := ledger.ApprovedEnough(policy.DefaultConfig("main"), c, []string{"agent@example.com"}); ok {
		t.Error("a mode approval counts for a policy candidate")
	}
}

// TestSkillCandidateCannotDeclarePolicy checks that a skill candidate whose propose commit
// claims the configuration as its path cannot change it: the change is outside its scope.
func TestSkillCandidateCannotDeclarePolicy(t *testing.T) {
	dir := newRepo(t)
	testenv.Git(t, dir, "checkout", "-q", "-b", "candidate/sneak-0001")
	editConfig(t, dir, func(s string) string {
		return strings.Replace(s, "skip_security_audit: false", "skip_security_audit: true", 1)
	})
	testenv.Git(t, dir, "add", "-A")
	testenv.Git(t, dir, "commit", "-q", "-m", "propose: sneak", "-m",
		"Skillgit-Action: propose\nSkillgit-Skill: sneak\nSkillgit-Candidate: sneak-0001\nSkillgit-Change: patch\nSkillgit-Path: .skillgit.yaml\nSkillgit-Risk: low")
	testenv.Git(t, dir, "checkout", "-q", "main")
	_, err := open(t, dir).Approve("sneak-0001", "", lead)
	wantRefusal(t, "approve", err, []string{policy.ConfigFile})
}

// TestProposeConfigRefusesInvalid checks that a configuration that does not parse, and an
// unchanged policy, are refused with what is wrong and nothing proposed.
func TestProposeConfigRefusesInvalid(t *testing.T) {
	dir := newRepo(t)
	if _, err := open(t, dir).ProposeConfig(ProposeOptions{ActOptions: agent}); err == nil || !strings.Contains(err.Error(), "nothing to propose") {
		t.Errorf("unchanged policy: %v; want nothing to propose", err)
	}
	editConfig(t, dir, func(s string) string { return s + "colour: blue\n" })
	_, err := open(t, dir).ProposeConfig(ProposeOptions{ActOptions: agent})
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), `unknown key "colour"`) {
		t.Errorf("invalid config: %v; want refused naming the key", err)
	}
	if out := testenv.GitText(t, dir, "for-each-ref", "refs/heads/candidate/"); out != "" {
		t.Errorf("candidates after refusals: %q", out)
	}
}

// TestProtectedModePropose checks that with server.protect on, the mode is proposed as a
// policy candidate and the publish branch does not move.
func TestProtectedModePropose(t *testing.T) {
	dir := newRepo(t)
	editConfig(t, dir, func(s string) string { return s + "server:\n  protect: true\n" })
	testenv.CommitAll(t, dir, "protect")
	tip := testenv.GitText(t, dir, "rev-parse", "main")
	res, err := open(t, dir).SetMode(policy.ModeAssisted, ActOptions{Author: lead.Author})
	if err != nil || res.ID == "" || res.Change != ChangePolicy {
		t.Fatalf("SetMode under protect: %+v, %v; want a policy candidate", res, err)
	}
	if now := testenv.GitText(t, dir, "rev-parse", "main"); now != tip {
		t.Errorf("main moved from %s to %s", tip, now)
	}
}

// TestModeApprovalOnlyWhereTheModeApproves checks that an approval by policy, which anyone can
// write by hand as a commit with a Skillgit-Policy trailer, counts only for the changes the mode
// itself approves after a proposal.
func TestModeApprovalOnlyWhereTheModeApproves(t *testing.T) {
	byMode := []Approval{{Policy: "assisted", Who: Actor{Email: "agent@example.com"}}}
	cases := []struct {
		name string
		mode policy.Mode
		c    Candidate
		want bool
	}{
		{"patch, assisted", policy.ModeAssisted, Candidate{Change: ChangePatch}, true},
		{"patch, manual", policy.ModeManual, Candidate{Change: ChangePatch}, false},
		{"new skill, assisted", policy.ModeAssisted, Candidate{Change: ChangeCreate}, false},
		{"new skill, autonomous", policy.ModeAutonomous, Candidate{Change: ChangeCreate}, true},
		{"deletion, autonomous", policy.ModeAutonomous, Candidate{Change: ChangeDelete}, false},
		{"pack patch, autonomous", policy.ModeAutonomous, Candidate{Change: ChangePatch, Pack: "tools@0123456"}, false},
		{"policy, autonomous", policy.ModeAutonomous, Candidate{Change: ChangePolicy}, false},
	}
	for _, tc := range cases {
		cfg := policy.DefaultConfig("main")
		cfg.Mode = tc.mode
		c := tc.c
		c.Risk, c.Approvals = "low", byMode
		if got, why := ledger.ApprovedEnough(cfg, &c, []string{"agent@example.com"}); got != tc.want {
			t.Errorf("%s: ledger.ApprovedEnough = %v (%s); want %v", tc.name, got, why, tc.want)
		}
	}
}

// TestPolicyCannotMovePublishBranch checks that a policy change naming another publish branch
// is refused: published, it would stop every command on the branch.
func TestPolicyCannotMovePublishBranch(t *testing.T) {
	dir := newRepo(t)
	editConfig(t, dir, func(s string) string { return strings.Replace(s, "publish_branch: main", "publish_branch: trunk", 1) })
	_, err := open(t, dir).ProposeConfig(ProposeOptions{ActOptions: agent})
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), `publish_branch may not change from "main" to "trunk"`) {
		t.Errorf("ProposeConfig: %v; want refused naming publish_branch", err)
	}
}

// TestPolicyFilesOutsideSkills checks that a configuration putting the allow list or the
// signers file in the skills folder, where a skill candidate could change it, is refused.
func TestPolicyFilesOutsideSkills(t *testing.T) {
	for _, line := range []string{"audit:\n  allow: skills/x/allow.yaml\n", "approvals:\n  allowed_signers: skills/allowed_signers\n"} {
		_, err := policy.ParseConfig([]byte(line))
		if err == nil || !strings.Contains(err.Error(), `lies in skills_dir "skills"`) {
			t.Errorf("%q: %v; want refused", line, err)
		}
	}
}
