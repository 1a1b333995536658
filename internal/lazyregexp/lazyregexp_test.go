package lazyregexp

import (
	"sync"
	"testing"
)

func TestNewCompilesOnceOnFirstUse(t *testing.T) {
	re := New(`^[a-z]+-(\d+)$`)
	var wg sync.WaitGroup
	got := make([]any, 8)
	for i := range got {
		wg.Go(func() { got[i] = re() })
	}
	wg.Wait()
	for i := range got {
		if got[i] != got[0] {
			t.Fatalf("call %d returned another compiled pattern than call 0", i)
		}
	}
	if m := re().FindStringSubmatch("skill-42"); len(m) != 2 || m[1] != "42" {
		t.Errorf("FindStringSubmatch = %q, want the digits", m)
	}
	if re().MatchString("Skill-42") {
		t.Error("the pattern matched what it should not")
	}
}

func TestNewPanicsOnlyWhenUsed(t *testing.T) {
	bad := New(`(`) // made, never compiled
	defer func() {
		if recover() == nil {
			t.Error("a pattern that does not compile did not panic on first use")
		}
	}()
	bad()
}
