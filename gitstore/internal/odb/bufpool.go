package odb

import (
	"math/bits"
	"sync"
)

// Objects are read into buffers taken from pools by size, and a caller done with an object
// gives its buffer back (Release). Listing 10,000 skills reads 40 MB of objects that are
// dropped at once: in fresh memory, every page of it costs the kernel a fault, which was a
// third of the listing's time.
//
// The buffer of a blob or a delta, which its reader usually gives back, is made with room to
// spare, the size of its class, so that it can serve any object of that class next. Trees and
// commits, which the caches keep, are read into buffers of their exact size, unless one given
// back is at hand: that one is at most about half as large again as the object.

// Objects of 1 KiB to 256 KiB are pooled, in classes a quarter of a power of two apart;
// smaller ones, such as most trees and commits, are not.
const (
	poolMinShift = 10 // the smallest class: 1 KiB
	poolMaxShift = 18 // the largest: 256 KiB
	classCount   = 1 + (poolMaxShift-poolMinShift)*4
)

// bufPools holds one pool per class; class c holds buffers of classSize(c) bytes or more, and
// less than the next class's size.
var bufPools [classCount]sync.Pool

// pooled reports whether buffers of n bytes are pooled.
func pooled(n int) bool { return n >= 1<<poolMinShift && n <= 1<<poolMaxShift }

// classFor returns the smallest class whose buffers all hold n bytes, a pooled size.
func classFor(n int) int {
	if n <= 1<<poolMinShift {
		return 0
	}
	s := bits.Len(uint(n - 1)) // 1<<(s-1) < n <= 1<<s
	step := 1 << (s - 3)
	q := (n - 1<<(s-1) + step - 1) / step // 1 to 4
	return 1 + (s-1-poolMinShift)*4 + q - 1
}

// classSize is the least capacity of the buffers of class c.
func classSize(c int) int {
	if c == 0 {
		return 1 << poolMinShift
	}
	s := poolMinShift + (c-1)/4 + 1 // the class lies above 1<<(s-1)
	return 1<<(s-1) + ((c-1)%4+1)<<(s-3)
}

// classOfCap returns the class a buffer of capacity n, a pooled size, goes back to: the
// largest whose size it reaches.
func classOfCap(n int) int {
	c := classFor(n)
	if classSize(c) > n {
		c--
	}
	return c
}

// getBuf returns a buffer of length n whose bytes are undefined: the caller writes every one
// of them before it hands the buffer on. With spare, a buffer made afresh has the capacity of
// n's class.
func getBuf(n int, spare bool) []byte {
	if !pooled(n) {
		return make([]byte, n)
	}
	c := classFor(n)
	if p, _ := bufPools[c].Get().(*[]byte); p != nil {
		return (*p)[:n]
	}
	if spare {
		return make([]byte, n, classSize(c))
	}
	return make([]byte, n)
}

// Release gives back the buffer of an object read, which the caller owns and no longer uses,
// nor anything that shares its memory. A buffer of a size that is not pooled is dropped.
func Release(b []byte) {
	if !pooled(cap(b)) {
		return
	}
	b = b[:0]
	bufPools[classOfCap(cap(b))].Put(&b)
}
