package lifecycle

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestProposeSameAsOpen refuses a proposal an open candidate of the skill already makes, and
// names the open candidates of the skill when the new one differs from them.
func TestProposeSameAsOpen(t *testing.T) {
	dir := newRepo(t)
	first := proposeNew(t, dir, "notes", cleanLine)
	_, err := proposeNewErr(t, dir, "notes", cleanLine)
	if !errors.Is(err, ErrAlreadyProposed) || !strings.Contains(err.Error(), "skillgit revise "+first.ID) {
		t.Fatalf("proposing the same folder again: %v; want ErrAlreadyProposed naming `skillgit revise %s`", err, first.ID)
	}
	if ids := openIDs(t, dir, "notes"); !slices.Equal(ids, []string{first.ID}) {
		t.Errorf("open candidates of notes after the refusal: %v; want only %s", ids, first.ID)
	}

	second := proposeNew(t, dir, "notes", cleanLine, "And more.")
	if !slices.Equal(second.OpenCandidates, []string{first.ID}) {
		t.Errorf("a different version: OpenCandidates %v; want [%s]", second.OpenCandidates, first.ID)
	}
	if !slices.ContainsFunc(second.Warnings, func(w string) bool {
		return strings.Contains(w, first.ID+" is also open") && strings.Contains(w, "skillgit revise "+first.ID)
	}) {
		t.Errorf("a different version: warnings %q; want one naming %s and `skillgit revise`", second.Warnings, first.ID)
	}
	if _, err := proposeNewErr(t, dir, "notes", cleanLine, "And more."); !errors.Is(err, ErrAlreadyProposed) || !strings.Contains(err.Error(), second.ID) {
		t.Errorf("proposing the second version again: %v; want ErrAlreadyProposed naming %s", err, second.ID)
	}
}

// TestProposeDeletionTwice refuses a second deletion of the same skill while one is open.
func TestProposeDeletionTwice(t *testing.T) {
	dir := newRepo(t)
	pub := proposeNew(t, dir, "old", cleanLine)
	approveAsLead(t, dir, pub.ID)
	if _, err := open(t, dir).Publish(pub.ID, "", lead); err != nil {
		t.Fatal(err)
	}
	del := propose(t, dir, ProposeOptions{ActOptions: agent, Target: "old", Delete: true, Message: "gone"})
	_, err := open(t, dir).Propose(ProposeOptions{ActOptions: agent, Target: "old", Delete: true, Message: "gone"})
	if !errors.Is(err, ErrAlreadyProposed) || !strings.Contains(err.Error(), del.ID) {
		t.Fatalf("a second deletion: %v; want ErrAlreadyProposed naming %s", err, del.ID)
	}
	patch := proposeNew(t, dir, "old", cleanLine, "Kept after all.")
	if !slices.Equal(patch.OpenCandidates, []string{del.ID}) || slices.ContainsFunc(patch.Warnings, func(w string) bool {
		return strings.Contains(w, "skillgit revise")
	}) {
		t.Errorf("a patch while a deletion is open: OpenCandidates %v, warnings %q; want %s named, and no revise of a deletion advised",
			patch.OpenCandidates, patch.Warnings, del.ID)
	}
}

func openIDs(t *testing.T, dir, skill string) []string {
	t.Helper()
	chains, err := open(t, dir).book().OpenOfSkill(skill)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, ch := range chains {
		ids = append(ids, ch.ID)
	}
	return ids
}
