package ledger

import "testing"

// TestKeepBoundedStartsOver checks that a kept map never holds more than its limit, and that
// what was put last is always there.
func TestKeepBoundedStartsOver(t *testing.T) {
	m := map[int]string{}
	for i := range 10 {
		m = keepBounded(m, i, "v", 4)
		if len(m) > 4 {
			t.Fatalf("after %d puts the map holds %d entries; limit 4", i+1, len(m))
		}
		if m[i] != "v" {
			t.Fatalf("the entry put last, %d, is not there", i)
		}
	}
	if len(m) != 2 {
		t.Errorf("after 10 puts with a limit of 4 the map holds %d entries; want 2 (8 and 9)", len(m))
	}
}
