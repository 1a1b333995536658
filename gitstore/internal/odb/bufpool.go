package odb

import (
	"math/bits"
	"sync"
)

// Objects are read into buffers taken from pools by size, and a caller done with an object
// gives its buffer back (Release). Listing 10,000 skills reads 40 MB of objects that are
// dropped at once: in fresh memory, every page of it costs the kernel a fault, which was a
// third of the listing's time.

// Buffers of up to 256 KiB are pooled, in classes a quarter of a power of two apart, so that
// a buffer is at most a quarter larger than the object it holds: the cache of delta bases
// counts the bytes its buffers take, not the objects' lengths.
const (
	poolMinShift = 9  // the smallest class: 512 bytes
	poolMaxShift = 18 // the largest: 256 KiB
	classCount   = 1 + (poolMaxShift-poolMinShift)*4
)

// bufPools holds one pool per class.
var bufPools [classCount]sync.Pool

// classOf returns the class of the buffers that hold n bytes, and their size; ok is false
// when n is not pooled.
func classOf(n int) (class, size int, ok bool) {
	switch {
	case n > 1<<poolMaxShift:
		return 0, 0, false
	case n <= 1<<poolMinShift:
		return 0, 1 << poolMinShift, true
	}
	s := bits.Len(uint(n - 1)) // 1<<(s-1) < n <= 1<<s
	step := 1 << (s - 3)
	q := (n - 1<<(s-1) + step - 1) / step // 1 to 4
	return 1 + (s-1-poolMinShift)*4 + q - 1, 1<<(s-1) + q*step, true
}

// getBuf returns a buffer of length n whose bytes are undefined: the caller writes every one
// of them before it hands the buffer on.
func getBuf(n int) []byte {
	c, size, ok := classOf(n)
	if !ok {
		return make([]byte, n)
	}
	if p, _ := bufPools[c].Get().(*[]byte); p != nil {
		return (*p)[:n]
	}
	return make([]byte, n, size)
}

// Release gives back the buffer of an object read, which the caller owns and no longer uses,
// nor anything that shares its memory. A buffer not made by getBuf is kept when its capacity
// is exactly that of a class, and dropped otherwise.
func Release(b []byte) {
	c, size, ok := classOf(cap(b))
	if !ok || cap(b) != size {
		return
	}
	b = b[:0]
	bufPools[c].Put(&b)
}
