package lifecycle

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/initrepo"
	"github.com/skillgit/skillgit/lifecycle/policy"
	"github.com/skillgit/skillgit/skills"
)

// TestRollbackWalksBack rolls a skill back twice: the second rollback undoes the publish
// before the one already undone, and a third finds nothing left in effect.
func TestRollbackWalksBack(t *testing.T) {
	dir := newRepo(t)
	publishedSkill(t, dir, "dates", cleanLine)
	publishedSkillPatch(t, dir, "dates", cleanLine, "Version two.")
	publishedSkillPatch(t, dir, "dates", cleanLine, "Version three.")
	log, err := open(t, dir).Log("dates")
	if err != nil || len(log) != 3 {
		t.Fatalf("log: %v %+v", err, log)
	}
	for i, want := range []string{"Version two.", ""} {
		rb, err := open(t, dir).Rollback("dates", "", lead)
		if err != nil {
			t.Fatalf("rollback %d: %v", i+1, err)
		}
		if rb.Reverts != log[i].Commit {
			t.Fatalf("rollback %d undid %s; want %s", i+1, rb.Reverts, log[i].Commit)
		}
		data, err := open(t, dir).Published().Content(mustFind(t, dir, "dates"))
		if err != nil || (want != "" && !strings.Contains(string(data), want)) || strings.Contains(string(data), "Version three.") ||
			(want == "" && strings.Contains(string(data), "Version two.")) {
			t.Fatalf("after rollback %d: %v\n%s", i+1, err, data)
		}
	}
	if _, err := open(t, dir).Rollback("dates", log[1].Commit, lead); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "rolled back already") {
		t.Fatalf("rollback of a publish already undone: %v", err)
	}
	rb, err := open(t, dir).Rollback("dates", "", lead)
	if err != nil || rb.Reverts != log[2].Commit {
		t.Fatalf("third rollback: %+v %v; want the first publish undone", rb, err)
	}
	if _, err := open(t, dir).Published().Find("dates"); err == nil {
		t.Fatalf("dates is still published after its first publish was undone")
	}
	if _, err := open(t, dir).Rollback("dates", "", lead); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "rolled back already") ||
		!strings.Contains(err.Error(), "skillgit propose dates --from-rev "+gitstore.ShortHash(log[0].Commit)) {
		t.Fatalf("rollback with every publish undone: %v; want it to name the latest publish to propose again", err)
	}
	testenv.Fsck(t, dir)
}

// TestRollbackOfRollbackRefused refuses to undo a rollback, by commit alone or with the
// skill's name: that would publish the removed version without approval.
func TestRollbackOfRollbackRefused(t *testing.T) {
	dir := newRepo(t)
	publishedSkill(t, dir, "dates", cleanLine)
	publishedSkillPatch(t, dir, "dates", cleanLine, "Version two.")
	rb, err := open(t, dir).Rollback("dates", "", lead)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"", "dates"} {
		_, err := open(t, dir).Rollback(name, rb.Commit, lead)
		before := gitstore.ShortHash(testenv.GitText(t, dir, "rev-parse", rb.Commit+"~1"))
		if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "is a rollback") || !strings.Contains(err.Error(), "skillgit propose dates --from-rev "+before) {
			t.Fatalf("Rollback(%q, the rollback): %v; want refused with advice to propose", name, err)
		}
	}
	data, err := open(t, dir).Published().Content(mustFind(t, dir, "dates"))
	if err != nil || strings.Contains(string(data), "Version two.") {
		t.Fatalf("the rolled-back version came back: %v\n%s", err, data)
	}
	testenv.Fsck(t, dir)
}

// TestRollbackAfterGitRevertOfRollback: a git revert of a rollback is no rollback and no
// publish: it brings back the withdrawn version without approval. The next rollback of the
// skill names that commit as what changed it and says to propose the version wanted.
func TestRollbackAfterGitRevertOfRollback(t *testing.T) {
	dir := newRepo(t)
	publishedSkill(t, dir, "dates", cleanLine)
	publishedSkillPatch(t, dir, "dates", cleanLine, "Version two.")
	rb, err := open(t, dir).Rollback("dates", "", lead)
	if err != nil {
		t.Fatal(err)
	}
	testenv.Git(t, dir, "revert", "--no-edit", rb.Commit)
	revert := gitstore.ShortHash(testenv.GitText(t, dir, "rev-parse", "HEAD"))
	_, err = open(t, dir).Rollback("dates", "", lead)
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), revert+", which is not a publish") || !strings.Contains(err.Error(), "skillgit propose dates --from-rev") {
		t.Fatalf("rollback after the rollback was reverted: %v; want a conflict naming the revert %s", err, revert)
	}
	e := logHead(t, dir)
	if e.Action != "commit" || !strings.Contains(e.Unverified, "not a publish") {
		t.Errorf("log of the revert of a rollback: %+v; want a commit that is no rollback", e)
	}
	testenv.Fsck(t, dir)
}

// TestRollbackUnattended lets an unattended caller roll back only what the mode publishes
// without a person: nothing in manual mode, a low-risk earlier version in autonomous mode,
// never a rollback that deletes a skill.
func TestRollbackUnattended(t *testing.T) {
	dir := newRepo(t)
	publishedSkill(t, dir, "learned-dates", cleanLine)
	publishedSkillPatch(t, dir, "learned-dates", cleanLine, "Version two.")
	bot := ActOptions{Author: agent.Author, Unattended: true}
	if _, err := open(t, dir).Rollback("learned-dates", "", bot); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "skillgit rollback learned-dates") {
		t.Fatalf("unattended rollback in manual mode: %v; want refused", err)
	}
	setMode(t, dir, policy.ModeAutonomous)
	if _, err := open(t, dir).Rollback("learned-dates", "", bot); err != nil {
		t.Fatalf("unattended rollback of a patch in autonomous mode: %v", err)
	}
	if _, err := open(t, dir).Rollback("learned-dates", "", bot); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "deletions") {
		t.Fatalf("unattended rollback that deletes the skill: %v; want refused", err)
	}
	if _, err := open(t, dir).Published().Find("learned-dates"); err != nil {
		t.Fatalf("dates after the refused deletion: %v", err)
	}
	testenv.Fsck(t, dir)
}

// TestRollbackRestOfPublish undoes one skill of a publish that changed two, then the publish
// by commit: only the skill still in effect is restored, and after that nothing is left.
func TestRollbackRestOfPublish(t *testing.T) {
	hermetic(t)
	dir := filepath.Join(t.TempDir(), "repo")
	if _, err := initrepo.Init(initrepo.Options{Dir: dir, Pack: skills.FS(), PackName: "builtin", PackVersion: skills.Version}); err != nil {
		t.Fatal(err)
	}
	pub := open(t, dir).tip.String()
	if _, err := open(t, dir).Rollback("skillgit", "", lead); err != nil {
		t.Fatal(err)
	}
	res, err := open(t, dir).Rollback("", pub, lead)
	if err != nil || res.Reverts != pub || res.Skill != "skill-authoring" {
		t.Fatalf("rollback of the rest of the publish: %+v, %v", res, err)
	}
	if _, err := open(t, dir).Published().Find("skill-authoring"); err == nil {
		t.Errorf("skill-authoring is still published after its rollback")
	}
	if _, err := open(t, dir).Rollback("", pub, lead); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "rolled back already") {
		t.Fatalf("rollback of a publish wholly undone: %v", err)
	}
	testenv.Fsck(t, dir)
}
