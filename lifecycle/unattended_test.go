package lifecycle

import (
	"errors"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// TestUnattendedPublish checks that an unattended publish goes through exactly where the mode
// would have published on its own, and is refused with the reason everywhere else, even when
// a person approved the candidate.
func TestUnattendedPublish(t *testing.T) {
	bot := agent
	bot.Unattended = true
	tests := []struct {
		name    string
		mode    policy.Mode
		body    []string
		create  bool
		approve bool
		channel string
		wantErr string
	}{
		{"manual-approved-patch", policy.ModeManual, []string{cleanLine, "More."}, false, true, "", "the mode is manual"},
		{"assisted-policy-approved-patch", policy.ModeAssisted, []string{cleanLine, "More."}, false, false, "", "the mode is assisted"},
		{"autonomous-medium-approved", policy.ModeAutonomous, []string{cleanLine, mediumLine}, false, true, "", "medium risk"},
		{"autonomous-new-skill-to-main", policy.ModeAutonomous, []string{cleanLine}, true, true, "main", "canary channel only"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := newRepo(t)
			publishedSkill(t, dir, "base", cleanLine)
			skill := "base"
			if tc.create {
				skill = "fresh"
			}
			res := proposeBody(t, dir, skill, tc.body...)
			if tc.approve {
				if _, err := open(t, dir).Approve(res.ID, "", lead); err != nil {
					t.Fatal(err)
				}
			}
			if tc.mode != policy.ModeManual {
				setMode(t, dir, tc.mode)
			}
			_, err := open(t, dir).Publish(res.ID, tc.channel, bot)
			if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "skillgit approve "+res.ID) {
				t.Fatalf("unattended publish: %v; want a refusal saying %q and naming `skillgit approve %s`", err, tc.wantErr, res.ID)
			}
			if _, err := open(t, dir).Publish(res.ID, tc.channel, lead); tc.approve && err != nil {
				t.Fatalf("a person's publish after the refusal: %v", err)
			}
		})
	}
}

// TestUnattendedPublishAllowed checks the case the mode allows: a low-risk patch, approved by
// policy in assisted mode, published by an agent once the mode is autonomous.
func TestUnattendedPublishAllowed(t *testing.T) {
	bot := agent
	bot.Unattended = true
	dir := newRepo(t)
	publishedSkill(t, dir, "learned-base", cleanLine)
	setMode(t, dir, policy.ModeAssisted)
	res := proposeBody(t, dir, "learned-base", cleanLine, "More.")
	setMode(t, dir, policy.ModeAutonomous)
	pub, err := open(t, dir).Publish(res.ID, "", bot)
	if err != nil || pub.State != StatePublished {
		t.Fatalf("unattended publish of a low-risk patch in autonomous mode: %v, %v", pub, err)
	}
	testenv.Fsck(t, dir)
}
