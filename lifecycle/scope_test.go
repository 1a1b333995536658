package lifecycle

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/internal/testenv"
)

// smuggle adds a commit with git to candidate id that patches the published skill victim,
// adds a skill stow and a file outside the skills folder, and goes back to main.
func smuggle(t *testing.T, dir, id string) {
	t.Helper()
	testenv.Git(t, dir, "checkout", "-q", "candidate/"+id)
	testenv.WriteFiles(t, dir, map[string]string{
		"skills/victim/SKILL.md": testenv.SkillMD("victim", cleanLine, "Patched on the side."),
		"skills/stow/SKILL.md":   testenv.SkillMD("stow", cleanLine),
		"notes.txt":              "not a skill\n",
	})
	testenv.CommitAll(t, dir, "more changes")
	testenv.Git(t, dir, "checkout", "-q", "main")
}

// TestScopeRefusesSmuggledChanges checks that a candidate whose branch changes other skills
// and files, in a commit made after its approval, is refused at approve and publish with
// those paths named, and that review shows them and blocks it.
func TestScopeRefusesSmuggledChanges(t *testing.T) {
	dir := newRepo(t)
	publishedSkill(t, dir, "victim", cleanLine)
	carrier := proposeNew(t, dir, "carrier", cleanLine)
	approveAsLead(t, dir, carrier.ID)
	smuggle(t, dir, carrier.ID)
	wantOutside := []string{"skills/stow", "skills/victim", "notes.txt"}

	sc, err := open(t, dir).CandidateScope(carrier.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantOutside, sc.Outside); diff != "" || !cmp.Equal(sc.Declared, []string{"skills/carrier"}) {
		t.Errorf("CandidateScope: declared %v, outside (-want +got):\n%s", sc.Declared, diff)
	}
	rv, err := open(t, dir).Review(carrier.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rv.Verdict != audit.VerdictBlocked || !cmp.Equal(rv.Scope.Outside, wantOutside) {
		t.Errorf("Review: verdict %s, outside %v; want BLOCKED with %v", rv.Verdict, rv.Scope.Outside, wantOutside)
	}
	for _, f := range rv.Files {
		if !strings.HasPrefix(f.Path, "skills/carrier/") {
			t.Errorf("Review shows %s, which publish would not merge", f.Path)
		}
	}
	_, err = open(t, dir).Approve(carrier.ID, "", ActOptions{Author: "Linus Torvalds <linus@example.com>"})
	wantRefusal(t, "approve", err, wantOutside)
	_, err = open(t, dir).Publish(carrier.ID, "", lead)
	wantRefusal(t, "publish", err, wantOutside)
}

func wantRefusal(t *testing.T, action string, err error, paths []string) {
	t.Helper()
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("%s: %v; want refused", action, err)
	}
	for _, p := range paths {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %v; want %s named", action, err, p)
		}
	}
}

// TestLogGitMergeListsEverySkill checks that a merge done with git of a candidate tip that
// changed several skills is in the trail under every one of them, whether the tip is the
// commit made with git or a lifecycle commit after it, as a commit and not a publish: it
// changes more than the candidate declares. So no rollback undoes it; removing the smuggled
// skill is a deletion to propose.
func TestLogGitMergeListsEverySkill(t *testing.T) {
	for _, trailersOnTip := range []bool{false, true} {
		t.Run(fmt.Sprintf("trailers on tip %v", trailersOnTip), func(t *testing.T) {
			dir := newRepo(t)
			publishedSkill(t, dir, "victim", cleanLine)
			carrier := proposeNew(t, dir, "carrier", cleanLine)
			smuggle(t, dir, carrier.ID)
			if trailersOnTip {
				testenv.Git(t, dir, "checkout", "-q", "candidate/"+carrier.ID)
				testenv.Git(t, dir, "commit", "-q", "--allow-empty", "-m", "approve: carrier\n\nSkillgit-Action: approve\nSkillgit-Skill: carrier\nSkillgit-Candidate: "+carrier.ID)
				testenv.Git(t, dir, "checkout", "-q", "main")
			}
			testenv.Git(t, dir, "merge", "-q", "--no-ff", "--no-edit", "candidate/"+carrier.ID)

			e := logHead(t, dir)
			if e.Action != "commit" || !strings.Contains(e.Unverified, "where candidate "+carrier.ID+" changes skills/carrier") || !cmp.Equal(e.Skills, []string{"carrier", "stow", "victim"}) {
				t.Errorf("Log of the git merge: action %q, unverified %q, skills %v; want a commit of carrier, stow, victim that is no publish", e.Action, e.Unverified, e.Skills)
			}
			for _, name := range []string{"victim", "stow"} {
				got, err := open(t, dir).Log(name)
				if err != nil || len(got) == 0 || got[0].Commit != e.Commit {
					t.Errorf("Log(%s): %v %+v; want the git merge %s first", name, err, got, e.Commit)
				}
			}
			_, err := open(t, dir).Rollback("stow", "", lead)
			if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "skillgit propose --delete stow") {
				t.Fatalf("Rollback(stow): %v; want no publish to undo, and the deletion to propose", err)
			}
		})
	}
}

// TestLogGitMergeOfOtherBranch checks that a merge of a branch forked from the publish
// branch, which holds publishes in its history, is not taken for a publish.
func TestLogGitMergeOfOtherBranch(t *testing.T) {
	dir := newRepo(t)
	publishedSkill(t, dir, "victim", cleanLine)
	testenv.Git(t, dir, "checkout", "-q", "-b", "feature")
	testenv.WriteFiles(t, dir, map[string]string{"skills/other/SKILL.md": testenv.SkillMD("other", cleanLine)})
	testenv.CommitAll(t, dir, "other")
	testenv.Git(t, dir, "checkout", "-q", "main")
	testenv.Git(t, dir, "merge", "-q", "--no-ff", "--no-edit", "feature")
	if e := logHead(t, dir); e.Action != "commit" || e.Candidate != "" || !cmp.Equal(e.Skills, []string{"other"}) {
		t.Errorf("Log of a merge of a feature branch: %+v; want a plain commit of other", e)
	}
}

// TestScopeAfterGitMergeOfMain checks that a candidate which brought the publish branch in
// with git merge is in scope: what the publish branch changed meanwhile is not its change.
func TestScopeAfterGitMergeOfMain(t *testing.T) {
	dir := newRepo(t)
	carrier := proposeNew(t, dir, "carrier", cleanLine)
	publishedSkill(t, dir, "later", cleanLine)
	testenv.Git(t, dir, "checkout", "-q", "candidate/"+carrier.ID)
	testenv.Git(t, dir, "merge", "-q", "--no-edit", "main")
	testenv.Git(t, dir, "checkout", "-q", "main")
	sc, err := open(t, dir).CandidateScope(carrier.ID)
	if err != nil || !sc.InScope() || !cmp.Equal(sc.Changed, []string{"skills/carrier"}) {
		t.Fatalf("CandidateScope after git merge main: %v %+v; want only skills/carrier changed", err, sc)
	}
	approveAsLead(t, dir, carrier.ID)
	if _, err := open(t, dir).Publish(carrier.ID, "", lead); err != nil {
		t.Fatal(err)
	}
}

// TestSmuggleVoidsEarlierApproval checks that an approval made before a commit that slipped
// other changes onto the branch no longer counts: the candidate is open again, not approved.
func TestSmuggleVoidsEarlierApproval(t *testing.T) {
	dir := newRepo(t)
	publishedSkill(t, dir, "victim", cleanLine)
	carrier := proposeNew(t, dir, "carrier", cleanLine)
	approveAsLead(t, dir, carrier.ID)
	if c, err := open(t, dir).Book().Candidate(carrier.ID); err != nil || c.State != StateApproved {
		t.Fatalf("before: %v, %v; want approved", c, err)
	}
	smuggle(t, dir, carrier.ID)
	c, err := open(t, dir).Book().Candidate(carrier.ID)
	if err != nil {
		t.Fatal(err)
	}
	if c.State != StateOpen || len(c.Approvals) != 0 {
		t.Errorf("after the smuggling commit: state %s, %d approval(s); want open with none", c.State, len(c.Approvals))
	}
}
