package lifecycle

import (
	"errors"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

var csvSteps = []string{
	"1. Read the CSV file with its header row.",
	"2. Trim the spaces around every cell.",
	"3. Drop the columns that are empty in every row.",
	"4. Write the cleaned file next to the original.",
}

// TestDedupeMarksAndHolds checks that a new skill with a published skill's steps is reported
// and marked a likely duplicate, that an agent cannot publish it though a person approved it,
// and that an unrelated skill gets no overlap.
func TestDedupeMarksAndHolds(t *testing.T) {
	dir := newRepo(t)
	publishedSkill(t, dir, "clean-csv", csvSteps...)
	res := proposeBody(t, dir, "csv-cleaner", "## Steps", "- Read the **CSV** file with its header row",
		"- Trim the spaces around every cell", "- Drop the columns that are empty in every row",
		"- Write the cleaned file next to the original")
	if len(res.Overlaps) == 0 || res.Overlaps[0].Skill != "clean-csv" || !res.Overlaps[0].Duplicate {
		t.Fatalf("overlaps %+v; want clean-csv first, as a likely duplicate", res.Overlaps)
	}
	c, err := open(t, dir).Book().Candidate(res.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Duplicates) != 1 || c.Duplicates[0].Skill != "clean-csv" || c.Duplicates[0].Score != res.Overlaps[0].Score {
		t.Fatalf("duplicates read back from git: %+v; want clean-csv at %v", c.Duplicates, res.Overlaps[0].Score)
	}
	setMode(t, dir, policy.ModeAutonomous)
	if _, err := open(t, dir).Approve(res.ID, "", lead); err != nil {
		t.Fatal(err)
	}
	bot := agent
	bot.Unattended = true
	_, err = open(t, dir).Publish(res.ID, "canary", bot)
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "likely duplicate of clean-csv") {
		t.Fatalf("unattended publish of a likely duplicate: %v; want a refusal naming clean-csv", err)
	}
	other := proposeBody(t, dir, "image-resize", "Resize every photo in the folder to 1200 pixels wide and save it as WebP.")
	if len(other.Overlaps) != 0 {
		t.Fatalf("an unrelated skill overlaps %+v", other.Overlaps)
	}
}

func TestParseOverlapTrailer(t *testing.T) {
	o := ledger.Overlap{Candidate: "clean-csv-1a2b", Score: 0.82, Reason: "same steps as candidate clean-csv-1a2b: body 82% alike"}
	back, ok := ledger.ParseOverlap(overlapTrailer(o))
	if !ok || back.Candidate != o.Candidate || back.Score != o.Score || back.Reason != o.Reason || !back.Duplicate {
		t.Fatalf("round trip: %+v, %v", back, ok)
	}
	if _, ok := ledger.ParseOverlap("clean-csv 7"); ok {
		t.Fatal("a score above 1 was read")
	}
}

// TestPolicyApprovalOfDuplicateDoesNotCount checks that an approval by policy, such as one
// written by hand with a Skillgit-Policy trailer, does not stand for a person on a likely
// duplicate, which the mode itself never approves.
func TestPolicyApprovalOfDuplicateDoesNotCount(t *testing.T) {
	cfg := policy.DefaultConfig("main")
	cfg.Mode = policy.ModeAutonomous
	byPolicy := Approval{Who: Actor{Name: "Agent Smith", Email: "agent@example.com"}, Policy: "autonomous"}
	c := &Candidate{Risk: "low", Change: ChangePatch, Approvals: []Approval{byPolicy}}
	if ok, why := ledger.ApprovedEnough(cfg, c, nil); !ok {
		t.Fatalf("a policy approval of a low-risk patch does not count: %s", why)
	}
	c.Duplicates = []ledger.Overlap{{Skill: "clean-csv", Score: 0.8, Duplicate: true}}
	ok, why := ledger.ApprovedEnough(cfg, c, nil)
	if ok || !strings.Contains(why, "the autonomous mode does not approve this change") {
		t.Fatalf("a policy approval of a likely duplicate counts: %v, %q", ok, why)
	}
}
