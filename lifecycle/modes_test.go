package lifecycle

import (
	"errors"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// publishedSkill proposes, approves and publishes a new skill with the given body.
func publishedSkill(t *testing.T, dir, name string, body ...string) {
	t.Helper()
	src := t.TempDir()
	testenv.WriteFiles(t, src, map[string]string{name + "/SKILL.md": testenv.SkillMD(name, body...)})
	res := propose(t, dir, ProposeOptions{ActOptions: agent, From: src + "/" + name})
	if _, err := open(t, dir).Approve(res.ID, "", lead); err != nil {
		t.Fatal(err)
	}
	if _, err := open(t, dir).Publish(res.ID, "", lead); err != nil {
		t.Fatal(err)
	}
}

// proposeBody proposes name with the given body lines from a fresh folder.
func proposeBody(t *testing.T, dir, name string, body ...string) *Result {
	t.Helper()
	src := t.TempDir()
	testenv.WriteFiles(t, src, map[string]string{name + "/SKILL.md": testenv.SkillMD(name, body...)})
	return propose(t, dir, ProposeOptions{ActOptions: agent, From: src + "/" + name})
}

func setMode(t *testing.T, dir string, m policy.Mode) {
	t.Helper()
	if _, err := open(t, dir).SetMode(m, lead); err != nil {
		t.Fatal(err)
	}
	if got := open(t, dir).cfg.Mode; got != m {
		t.Fatalf("mode %s after SetMode(%s)", got, m)
	}
}

func TestModes(t *testing.T) {
	tests := []struct {
		mode      policy.Mode
		body      []string
		create    bool
		wantState State
		wantAuto  int
	}{
		{policy.ModeManual, []string{cleanLine, "More."}, false, StateOpen, 0},
		{policy.ModeAssisted, []string{cleanLine, "More."}, false, StateApproved, 1},
		{policy.ModeAssisted, []string{cleanLine}, true, StateOpen, 0},
		{policy.ModeAssisted, []string{cleanLine, mediumLine}, false, StateOpen, 0},
		{policy.ModeAutonomous, []string{cleanLine, "More."}, false, StatePublished, 2},
		{policy.ModeAutonomous, []string{cleanLine}, true, StateCanary, 2},
		{policy.ModeAutonomous, []string{cleanLine, mediumLine}, false, StateOpen, 0},
		{policy.ModeAutonomous, []string{cleanLine, evilLine}, false, StateOpen, 0},
	}
	for _, tc := range tests {
		name := string(tc.mode) + map[bool]string{true: "-create", false: "-patch"}[tc.create] + "-" + strings.Fields(tc.body[len(tc.body)-1])[0]
		t.Run(name, func(t *testing.T) {
			dir := newRepo(t)
			publishedSkill(t, dir, "base", cleanLine)
			if tc.mode != policy.ModeManual {
				setMode(t, dir, tc.mode)
			}
			skill := "base"
			if tc.create {
				skill = "fresh"
			}
			res := proposeBody(t, dir, skill, tc.body...)
			if res.State != tc.wantState || len(res.Auto) != tc.wantAuto {
				t.Fatalf("state %s with auto %q; want %s with %d automatic steps", res.State, res.Auto, tc.wantState, tc.wantAuto)
			}
			c, err := open(t, dir).Book().Candidate(res.ID)
			if err != nil || c.State != tc.wantState {
				t.Fatalf("candidate state %v (%v); want %s", c, err, tc.wantState)
			}
			testenv.Fsck(t, dir)
		})
	}
}

func TestAutonomousNewSkillOnlyOnCanary(t *testing.T) {
	dir := newRepo(t)
	setMode(t, dir, policy.ModeAutonomous)
	res := proposeBody(t, dir, "fresh", cleanLine)
	if res.State != StateCanary {
		t.Fatalf("state %s; want canary", res.State)
	}
	r := open(t, dir)
	if _, err := r.Published().Find("fresh"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("main has the new skill: %v", err)
	}
	canary, err := r.git.Refs().Get(canaryRef)
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.git.Objects().Commit(canary)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := r.git.Objects().EntryAt(c.TreeHash, "skills/fresh/SKILL.md"); err != nil || !ok {
		t.Fatalf("canary lacks the skill: %v", err)
	}
	// A person publishes it to main afterwards; the policy approval counts for a low risk.
	if _, err := r.Publish(res.ID, "", lead); err != nil {
		t.Fatal(err)
	}
	if _, err := open(t, dir).Published().Find("fresh"); err != nil {
		t.Fatal(err)
	}
}

func TestRefusals(t *testing.T) {
	dir := newRepo(t)
	publishedSkill(t, dir, "base", cleanLine)
	r := open(t, dir)

	src := t.TempDir()
	testenv.WriteFiles(t, src, map[string]string{"ghost/SKILL.md": testenv.SkillMD("ghost", cleanLine)})
	if _, err := r.Propose(ProposeOptions{ActOptions: agent, Target: "ghost", Delete: true}); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleting a skill that does not exist: %v", err)
	}
	if _, err := r.Propose(ProposeOptions{ActOptions: agent, Target: "ghost"}); err == nil || !strings.Contains(err.Error(), "ghost") {
		t.Errorf("patching a skill with no folder: %v", err)
	}
	testenv.WriteFiles(t, dir, map[string]string{"skills/other/base/SKILL.md": testenv.SkillMD("base", cleanLine, "Different.")})
	if _, err := r.Propose(ProposeOptions{ActOptions: agent, Target: "skills/other/base"}); err == nil || !strings.Contains(err.Error(), "already published at skills/base") {
		t.Errorf("creating a skill whose name exists: %v", err)
	}
	testenv.RemoveAll(t, dir+"/skills/other")
	if _, err := r.Propose(ProposeOptions{ActOptions: agent, Target: "base"}); err == nil || !strings.Contains(err.Error(), "nothing to propose") {
		t.Errorf("proposing the published version: %v", err)
	}

	evil := proposeBody(t, dir, "base", cleanLine, evilLine)
	if evil.Risk != "high" {
		t.Fatalf("risk %s; want high", evil.Risk)
	}
	if _, err := open(t, dir).Approve(evil.ID, "", lead); err != nil {
		t.Fatal(err)
	}
	if _, err := open(t, dir).Publish(evil.ID, "", lead); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "high risk") {
		t.Errorf("high-risk publish: %v", err)
	}
	rej, err := open(t, dir).Reject(evil.ID, "downloads and runs code", lead)
	if err != nil || rej.State != StateRejected {
		t.Fatalf("reject: %v %+v", err, rej)
	}
	if _, err := open(t, dir).git.Refs().Get(ArchivePrefix + evil.ID); err != nil {
		t.Errorf("archive ref: %v", err)
	}
	if _, err := open(t, dir).git.Refs().Get(CandidatePrefix + evil.ID); !errors.Is(err, gitstore.ErrRefNotFound) {
		t.Errorf("candidate branch still there: %v", err)
	}
	if _, err := open(t, dir).Approve(evil.ID, "", lead); !errors.Is(err, ErrRefused) {
		t.Errorf("approving a rejected candidate: %v", err)
	}
	testenv.Fsck(t, dir)
}

func TestStaleCandidateAndRebase(t *testing.T) {
	dir := newRepo(t)
	publishedSkill(t, dir, "base", cleanLine)
	first := proposeBody(t, dir, "base", cleanLine, "First change.")
	publishedSkillPatch(t, dir, "base", cleanLine, "Second change.")
	if _, err := open(t, dir).Approve(first.ID, "", lead); err != nil {
		t.Fatal(err)
	}
	_, err := open(t, dir).Publish(first.ID, "", lead)
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "base") || !strings.Contains(err.Error(), "skillgit rebase "+first.ID) {
		t.Fatalf("stale publish: %v; want a conflict naming the skill and rebase", err)
	}
	// Both changed the same file: rebase cannot merge it either.
	if _, err := open(t, dir).Rebase(first.ID, lead); !errors.Is(err, ErrConflict) {
		t.Fatalf("rebase of a conflicting change: %v", err)
	}
	// A candidate of another skill rebases cleanly and keeps its approval.
	publishedSkill(t, dir, "other", cleanLine)
	other := proposeBody(t, dir, "other", cleanLine, "Other change.")
	if _, err := open(t, dir).Approve(other.ID, "", lead); err != nil {
		t.Fatal(err)
	}
	publishedSkillPatch(t, dir, "base", cleanLine, "Third change.")
	rb, err := open(t, dir).Rebase(other.ID, lead)
	if err != nil || rb.State != StateApproved {
		t.Fatalf("rebase: %v %+v", err, rb)
	}
	if _, err := open(t, dir).Publish(other.ID, "", lead); err != nil {
		t.Fatal(err)
	}
	testenv.Fsck(t, dir)
}

// publishedSkillPatch publishes a patch of name through the whole lifecycle.
func publishedSkillPatch(t *testing.T, dir, name string, body ...string) {
	t.Helper()
	res := proposeBody(t, dir, name, body...)
	if _, err := open(t, dir).Approve(res.ID, "", lead); err != nil {
		t.Fatal(err)
	}
	if _, err := open(t, dir).Publish(res.ID, "", lead); err != nil {
		t.Fatal(err)
	}
}

// TestCanaryFollowsMain checks that canary stays the publish branch plus canary publishes:
// a publish made on main after canary began reaches canary with the next canary publish.
func TestCanaryFollowsMain(t *testing.T) {
	dir := newRepo(t)
	publishedSkill(t, dir, "base", cleanLine)
	setMode(t, dir, policy.ModeAutonomous)
	first := proposeBody(t, dir, "first", cleanLine)
	main := proposeBody(t, dir, "base", cleanLine, "On main.")
	second := proposeBody(t, dir, "second", cleanLine)
	if first.State != StateCanary || main.State != StatePublished || second.State != StateCanary {
		t.Fatalf("states %s %s %s; want canary, published, canary", first.State, main.State, second.State)
	}
	r := open(t, dir)
	canary, err := r.git.Refs().Get(canaryRef)
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.git.Objects().Commit(canary)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"skills/first", "skills/second", "skills/base"} {
		want, _ := r.FolderAt(r.tree, p)
		if p != "skills/base" {
			want, _ = r.FolderAt(c.TreeHash, p)
		}
		got, err := r.FolderAt(c.TreeHash, p)
		if err != nil || got.IsZero() || got != want {
			t.Errorf("canary %s = %s (%v); want %s", p, got, err, want)
		}
	}
	if ok, err := r.git.History().IsAncestor(r.tip, canary); err != nil || !ok {
		t.Errorf("main is not an ancestor of canary (%v)", err)
	}
	testenv.Fsck(t, dir)
}
