package lifecycle

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
)

// TestAuditTrailerStatesVerdict: the Skillgit-Audit trailer of propose and revise says the
// verdict the policy reached, so a blocked change never reads "pass".
func TestAuditTrailerStatesVerdict(t *testing.T) {
	dir := newRepo(t)
	clean := proposeNew(t, dir, "clean", cleanLine)
	medium := proposeNew(t, dir, "medium", cleanLine, mediumLine)
	evil := proposeNew(t, dir, "evil", cleanLine, evilLine)
	for _, tc := range []struct {
		res  *Result
		want string
	}{{clean, "pass ("}, {medium, "needs review ("}, {evil, "blocked ("}} {
		got := gitTrailers(t, dir, tc.res.Commit)["Skillgit-Audit"]
		if len(got) != 1 || !strings.HasPrefix(got[0], tc.want) {
			t.Errorf("%s (risk %s): Skillgit-Audit %q; want it to start %q", tc.res.ID, tc.res.Risk, got, tc.want)
		}
		if c := candidateState(t, dir, tc.res.ID); !strings.HasPrefix(c.Audit, tc.want) {
			t.Errorf("%s: candidate audit %q; want it to start %q", tc.res.ID, c.Audit, tc.want)
		}
	}

	src := t.TempDir()
	testenv.WriteFiles(t, src, map[string]string{"clean/SKILL.md": testenv.SkillMD("clean", cleanLine, evilLine)})
	rev, err := open(t, dir).Revise(clean.ID, ProposeOptions{ActOptions: agent, From: src + "/clean", Message: "more"})
	if err != nil {
		t.Fatalf("revise: %v", err)
	}
	if got := gitTrailers(t, dir, rev.Commit)["Skillgit-Audit"]; len(got) != 1 || !strings.HasPrefix(got[0], "blocked (") {
		t.Errorf("revise to a high-risk version: Skillgit-Audit %q; want blocked (…)", got)
	}
}

// TestUnapprovedTwinIsNotPublished: a candidate nobody approved is not "published" because
// another candidate published the same content; published is for a candidate whose own tip
// was merged, or an approved one whose folder a squash merge put on the branch. Propose
// refuses a twin of an open candidate, so the twin here is revised into one.
func TestUnapprovedTwinIsNotPublished(t *testing.T) {
	dir := newRepo(t)
	first := proposeNew(t, dir, "twin", cleanLine)
	second := proposeNew(t, dir, "twin", cleanLine, "Not yet the same.")
	src := t.TempDir()
	testenv.WriteFiles(t, src, map[string]string{"twin/SKILL.md": testenv.SkillMD("twin", cleanLine)})
	if _, err := open(t, dir).Revise(second.ID, ProposeOptions{ActOptions: agent, From: src + "/twin", Message: "same"}); err != nil {
		t.Fatalf("revise %s into a twin of %s: %v", second.ID, first.ID, err)
	}
	approveAsLead(t, dir, first.ID)
	if _, err := open(t, dir).Publish(first.ID, "", lead); err != nil {
		t.Fatalf("publish %s: %v", first.ID, err)
	}
	if c := candidateState(t, dir, first.ID); c.State != StatePublished {
		t.Errorf("%s, approved and published: state %s; want published", first.ID, c.State)
	}
	if c := candidateState(t, dir, second.ID); c.State != StateOpen {
		t.Errorf("%s, never approved, same content as the published %s: state %s; want open", second.ID, first.ID, c.State)
	}
	if got, want := publishedIDs(t, dir), []string{first.ID + "=published"}; !slices.Equal(got, want) {
		t.Errorf("Candidates(published): %v; want %v", got, want)
	}
	if _, c, err := open(t, dir).book().OpenCandidate(second.ID); err != nil || c.State != StateOpen {
		t.Errorf("acting on %s: %v, state %v; want it open", second.ID, err, c)
	}

	// A squash merge is still recognised for the approved candidate whose folder it holds.
	squashed := proposeNew(t, dir, "squashed", cleanLine)
	approveAsLead(t, dir, squashed.ID)
	testenv.Git(t, dir, "merge", "-q", "--squash", "candidate/"+squashed.ID)
	testenv.Git(t, dir, "commit", "-q", "-m", "squash squashed")
	if c := candidateState(t, dir, squashed.ID); c.State != StatePublished {
		t.Errorf("%s after a squash merge: state %s; want published", squashed.ID, c.State)
	}
	// Reverting the squash commit rolls it back; it is not approved and publishable again.
	testenv.Git(t, dir, "revert", "--no-edit", "HEAD")
	if c := candidateState(t, dir, squashed.ID); c.State != StateRolledBack {
		t.Errorf("%s after its squash merge was reverted: state %s; want rolled-back", squashed.ID, c.State)
	}
	list, err := open(t, dir).Book().Candidates(string(StateRolledBack))
	if err != nil || !slices.ContainsFunc(list, func(c *Candidate) bool { return c.ID == squashed.ID }) {
		t.Errorf("Candidates(rolled-back): %v, %v; want %s listed", list, err, squashed.ID)
	}

	// A plain git merge of a tip nobody approved is still the publish of that candidate.
	merged := proposeNew(t, dir, "merged", cleanLine)
	testenv.Git(t, dir, "merge", "-q", "--no-ff", "--no-edit", "candidate/"+merged.ID)
	if c := candidateState(t, dir, merged.ID); c.State != StatePublished {
		t.Errorf("%s after git merge of its tip: state %s; want published", merged.ID, c.State)
	}
	if _, err := open(t, dir).Approve(merged.ID, "", lead); !errors.Is(err, ErrRefused) {
		t.Errorf("approving %s once merged: %v; want refused as published", merged.ID, err)
	}
}

// TestRolledBackState: a published candidate whose publish was reverted, by skillgit
// rollback or by git revert, is rolled back in Candidate, Candidates and Review, and no
// longer listed as published; reverting the revert publishes it again.
func TestRolledBackState(t *testing.T) {
	dir := newRepo(t)
	pubs := map[string]*Result{}
	for _, name := range []string{"alpha", "beta"} {
		res := proposeNew(t, dir, name, cleanLine)
		approveAsLead(t, dir, res.ID)
		if _, err := open(t, dir).Publish(res.ID, "", lead); err != nil {
			t.Fatalf("publish %s: %v", res.ID, err)
		}
		pubs[name] = res
	}
	alpha, beta := pubs["alpha"], pubs["beta"]
	if _, err := open(t, dir).Rollback("alpha", "", lead); err != nil {
		t.Fatalf("rollback alpha: %v", err)
	}
	betaPub := candidateState(t, dir, beta.ID).PublishedBy
	testenv.Git(t, dir, "revert", "-m", "1", "--no-edit", betaPub)

	for _, id := range []string{alpha.ID, beta.ID} {
		if c := candidateState(t, dir, id); c.State != StateRolledBack {
			t.Errorf("Candidate(%s) after its publish was reverted: state %s; want %s", id, c.State, StateRolledBack)
		}
		if rv, err := open(t, dir).Review(id); err != nil || rv.Candidate.State != StateRolledBack {
			t.Errorf("Review(%s): %v; want state %s", id, err, StateRolledBack)
		}
	}
	if got := publishedIDs(t, dir); len(got) != 0 {
		t.Errorf("Candidates(published) after both were reverted: %v; want none", got)
	}
	cs, err := open(t, dir).Book().Candidates(string(StateRolledBack))
	if err != nil || len(cs) != 2 {
		t.Fatalf("Candidates(rolled-back): %v, %d; want alpha and beta", err, len(cs))
	}
	data, err := json.Marshal(cs[0])
	if err != nil || !strings.Contains(string(data), `"state":"rolled-back"`) {
		t.Errorf("JSON of a rolled-back candidate: %s %v", data, err)
	}

	// Reverting the revert publishes nothing: it brings beta's files back without approval,
	// and the candidate stays rolled back.
	testenv.Git(t, dir, "revert", "--no-edit", "HEAD")
	if c := candidateState(t, dir, beta.ID); c.State != StateRolledBack {
		t.Errorf("Candidate(%s) after the revert was reverted: state %s; want still rolled back", beta.ID, c.State)
	}
}
