package odb

import "testing"

// TestBufferClasses checks the sizes a buffer is pooled at: from 512 bytes to 256 KiB, in
// steps of a quarter of a power of two, the smallest that holds the length asked for; and
// nothing above.
func TestBufferClasses(t *testing.T) {
	for _, tc := range []struct {
		n, want int // want is the capacity; 0 when not pooled
	}{
		{0, 512}, {1, 512}, {512, 512}, {513, 640}, {1000, 1024}, {1025, 1280}, {3000, 3072},
		{4096, 4096}, {4097, 5120}, {1<<17 + 1, 1<<17 + 1<<15}, {1 << 18, 1 << 18}, {1<<18 + 1, 0},
	} {
		b := getBuf(tc.n)
		if len(b) != tc.n {
			t.Errorf("getBuf(%d) has length %d", tc.n, len(b))
		}
		c, size, pooled := classOf(tc.n)
		if pooled != (tc.want != 0) || pooled && (size != tc.want || cap(b) != tc.want || c < 0 || c >= classCount) {
			t.Errorf("getBuf(%d): class %d of %d bytes, pooled %v, capacity %d; want capacity %d", tc.n, c, size, pooled, cap(b), tc.want)
		}
	}
}

// TestReleaseKeepsOnlyClassBuffers gives back buffers whose capacity is no class's, among
// them two that would fall in the 4 KiB class, and checks that every buffer later handed out
// for that class has the class's capacity: one of 3,900 bytes would not hold 4,000.
func TestReleaseKeepsOnlyClassBuffers(t *testing.T) {
	for _, b := range [][]byte{make([]byte, 100), make([]byte, 10, 3900), make([]byte, 0, 4095), nil} {
		Release(b)
	}
	for range 100 {
		b := getBuf(4000)
		if len(b) != 4000 || cap(b) != 4096 {
			t.Fatalf("getBuf(4000) = length %d, capacity %d; want 4000, 4096", len(b), cap(b))
		}
		Release(b)
	}
}

// TestClassesCoverEverySize checks every length up to the largest class: its class holds it,
// wastes at most a quarter of it beyond the smallest class, and the classes follow one
// another without a gap, each of one size.
func TestClassesCoverEverySize(t *testing.T) {
	prevClass, prevSize := 0, 1<<poolMinShift
	for n := 0; n <= 1<<poolMaxShift; n++ {
		c, size, ok := classOf(n)
		switch {
		case !ok || size < n || size > max(n+n/4, 1<<poolMinShift):
			t.Fatalf("classOf(%d) = class %d of %d bytes, pooled %v", n, c, size, ok)
		case c == prevClass && size != prevSize, c != prevClass && c != prevClass+1:
			t.Fatalf("classOf(%d) = class %d of %d bytes after class %d of %d", n, c, size, prevClass, prevSize)
		}
		prevClass, prevSize = c, size
	}
	if prevClass != classCount-1 {
		t.Errorf("the largest length is in class %d of %d", prevClass, classCount)
	}
}
