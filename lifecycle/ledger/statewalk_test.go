package ledger

import (
	"testing"
	"time"

	"github.com/skillgit/skillgit/gitstore"
)

// TestLastWalkReachesBackFarEnough checks that a remembered walk serves only walks that go
// back no further than it did.
func TestLastWalkReachesBackFarEnough(t *testing.T) {
	l := New(nil, "skills")
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if l.lastWalk(t0) != nil {
		t.Fatal("a walk is remembered before any was made")
	}
	w := &stateWalk{tip: gitstore.Hash{1}, since: t0}
	l.rememberWalk(w)
	if l.lastWalk(t0.Add(time.Hour)) != w || l.lastWalk(t0) != w {
		t.Error("a walk back to t0 does not serve a walk back to t0 or later")
	}
	if l.lastWalk(t0.Add(-time.Second)) != nil {
		t.Error("a walk back to t0 serves a walk back to before t0")
	}
}
