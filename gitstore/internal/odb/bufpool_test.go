package odb

import "testing"

// TestClassesCoverEverySize checks every pooled length: the class a read takes from holds
// it and wastes at most a quarter of it, the class a buffer of that capacity goes back to
// is no larger than it, and the classes follow one another without a gap.
func TestClassesCoverEverySize(t *testing.T) {
	prev := 0
	for n := 1 << poolMinShift; n <= 1<<poolMaxShift; n++ {
		c := classFor(n)
		switch size := classSize(c); {
		case c < 0 || c >= classCount || size < n || size > max(n+n/4, 1<<poolMinShift):
			t.Fatalf("classFor(%d) = class %d of %d bytes", n, c, size)
		case c != prev && c != prev+1:
			t.Fatalf("classFor(%d) = class %d after class %d", n, c, prev)
		}
		back := classOfCap(n)
		if back < 0 || classSize(back) > n || back < classCount-1 && classSize(back+1) <= n {
			t.Fatalf("a buffer of %d bytes goes back to class %d of %d bytes", n, back, classSize(back))
		}
		prev = c
	}
	if prev != classCount-1 {
		t.Errorf("the largest pooled length is in class %d of %d", prev, classCount)
	}
}

// TestReleasedBuffersHoldWhatTheyServe gives back buffers of many capacities, pooled or not,
// and then asks for lengths around each: every buffer handed out has the length asked for
// and room for it, one of a length not pooled is of that length exactly, and one asked for
// with room to spare holds anything of its class.
func TestReleasedBuffersHoldWhatTheyServe(t *testing.T) {
	caps := []int{100, 1000, 1024, 1025, 1100, 3000, 3900, 4095, 4096, 70000, 1 << 18, 1<<18 + 1, 1 << 20}
	for _, c := range caps {
		Release(make([]byte, 0, c))
	}
	for _, c := range caps {
		for _, n := range []int{c - 1, c, c + 1, c + c/8} {
			for _, spare := range []bool{false, true} {
				b := getBuf(n, spare)
				switch {
				case len(b) != n || cap(b) < n:
					t.Fatalf("getBuf(%d, %v) = length %d, capacity %d", n, spare, len(b), cap(b))
				case !pooled(n) && cap(b) != n:
					t.Fatalf("getBuf(%d, %v), not pooled, has capacity %d", n, spare, cap(b))
				case pooled(n) && spare && cap(b) < classSize(classFor(n)):
					t.Fatalf("getBuf(%d, true) has capacity %d, less than its class's %d", n, cap(b), classSize(classFor(n)))
				}
				Release(b)
			}
		}
	}
}
