package lifecycle

import (
	"errors"
	"strings"
	"testing"
)

// TestProposeConfigTwice checks that proposing the same policy change again, while its first
// candidate is open, is refused and names that candidate, also after the publish branch moved
// on; a different change is a candidate of its own.
func TestProposeConfigTwice(t *testing.T) {
	dir := newRepo(t)
	editConfig(t, dir, func(s string) string { return strings.Replace(s, "mode: manual", "mode: assisted", 1) })
	first := proposeConfig(t, dir, agent)
	moved := proposeNew(t, dir, "moved", "Use the date command to print the date.")
	if _, err := open(t, dir).Approve(moved.ID, "", lead); err != nil {
		t.Fatal(err)
	}
	if _, err := open(t, dir).Publish(moved.ID, "", lead); err != nil {
		t.Fatal(err)
	}
	_, err := open(t, dir).ProposeConfig(ProposeOptions{ActOptions: agent})
	if !errors.Is(err, ErrAlreadyProposed) || !strings.Contains(err.Error(), first.ID) {
		t.Fatalf("the same change again: %v; want it refused, naming %s", err, first.ID)
	}
	editConfig(t, dir, func(s string) string { return strings.Replace(s, "mode: assisted", "mode: autonomous", 1) })
	if other := proposeConfig(t, dir, agent); other.ID == first.ID {
		t.Fatalf("another change got the first candidate's id %s", other.ID)
	}
}
