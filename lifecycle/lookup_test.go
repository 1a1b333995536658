package lifecycle

import (
	"errors"
	"strings"
	"testing"
)

// TestLookupBySkill: a skill with one open candidate names it, in every lookup; with two, the
// error lists both ids; once published, the skill names nothing open, and the error says so.
func TestLookupBySkill(t *testing.T) {
	dir := newRepo(t)
	one := proposeNew(t, dir, "solo", cleanLine)
	c, err := open(t, dir).Book().Candidate("solo")
	if err != nil || c.ID != one.ID {
		t.Fatalf("Candidate(solo) = %v, %v; want %s", c, err, one.ID)
	}
	if rv, err := open(t, dir).Review("solo"); err != nil || rv.Candidate.ID != one.ID {
		t.Fatalf("Review(solo): %v; want %s", err, one.ID)
	}

	two := proposeNew(t, dir, "solo", cleanLine, mediumLine)
	_, err = open(t, dir).Book().Candidate("solo")
	if err == nil || !strings.Contains(err.Error(), one.ID) || !strings.Contains(err.Error(), two.ID) || errors.Is(err, ErrNotFound) {
		t.Fatalf("Candidate(solo) with two open: %v; want an error naming %s and %s", err, one.ID, two.ID)
	}
	if _, err := open(t, dir).Reject(two.ID, "one is enough", lead); err != nil {
		t.Fatalf("reject %s: %v", two.ID, err)
	}

	approveAsLead(t, dir, "solo")
	res, err := open(t, dir).Publish("solo", "", lead)
	if err != nil || res.ID != one.ID {
		t.Fatalf("Publish(solo) = %v, %v; want %s published", res, err, one.ID)
	}
	_, err = open(t, dir).Publish("solo", "", lead)
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "no open candidate changes a skill of this name") {
		t.Errorf("Publish(solo) again: %v; want not found, saying no open candidate", err)
	}
	if c, err := open(t, dir).Book().Candidate(one.ID); err != nil || c.State != StatePublished {
		t.Errorf("Candidate(%s) after publish: %v, %v; want published", one.ID, c, err)
	}
}
