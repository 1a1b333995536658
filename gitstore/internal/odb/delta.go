package odb

import (
	"errors"
	"fmt"
)

// deltaHeader returns the base and result sizes a delta starts with and
// how many bytes they took.
func deltaHeader(d []byte) (src, dst int64, n int, err error) {
	src, n1, err := deltaVarint(d)
	if err != nil {
		return 0, 0, 0, err
	}
	dst, n2, err := deltaVarint(d[n1:])
	if err != nil {
		return 0, 0, 0, err
	}
	return src, dst, n1 + n2, nil
}

// deltaVarint reads a little-endian base-128 size.
func deltaVarint(b []byte) (int64, int, error) {
	var v uint64
	for i, shift := 0, uint(0); i < len(b); i, shift = i+1, shift+7 {
		if shift > 56 {
			return 0, 0, errors.New("delta size too large")
		}
		v |= uint64(b[i]&0x7f) << shift
		if b[i]&0x80 == 0 {
			if v >= 1<<62 {
				return 0, 0, errors.New("delta size too large")
			}
			return int64(v), i + 1, nil
		}
	}
	return 0, 0, errors.New("delta header runs past the end")
}

// MaxDeltaResult bounds what a delta may build: git stores files above
// its core.bigFileThreshold (512 MiB by default) whole, never as deltas,
// so a larger delta result is taken for a corrupt pack rather than
// allocated.
const MaxDeltaResult = 512 << 20

// applyDelta builds the result of delta d against base, into a buffer of
// getBuf's, with room to spare if told. It checks every instruction
// against the sizes the delta declares, and that the instructions
// produce exactly the declared result size, before it allocates the
// result.
func applyDelta(base, d []byte, spare bool) ([]byte, error) {
	src, dst, n, err := deltaHeader(d)
	if err != nil {
		return nil, err
	}
	if dst > MaxDeltaResult {
		return nil, fmt.Errorf("delta result of %d bytes is above %d", dst, MaxDeltaResult)
	}
	if src != int64(len(base)) {
		return nil, fmt.Errorf("delta expects a base of %d bytes, has %d", src, len(base))
	}
	ops := d[n:]
	total, err := deltaOutput(ops, int64(len(base)))
	if err != nil {
		return nil, err
	}
	if total != dst {
		return nil, fmt.Errorf("delta makes %d bytes, declares %d", total, dst)
	}
	return runDelta(getBuf(int(dst), spare)[:0], base, ops), nil
}

// deltaOutput checks the instructions ops against a base of baseLen
// bytes and returns how many bytes they produce.
func deltaOutput(ops []byte, baseLen int64) (int64, error) {
	var total int64
	for i := 0; i < len(ops); {
		c := ops[i]
		i++
		var size int64
		switch {
		case c&0x80 != 0:
			off, sz, n, err := copyArgs(c, ops[i:])
			if err != nil {
				return 0, err
			}
			if off+sz > baseLen {
				return 0, fmt.Errorf("delta copies %d+%d from a base of %d bytes", off, sz, baseLen)
			}
			i += n
			size = sz
		case c == 0:
			return 0, errors.New("delta has the reserved instruction 0")
		default:
			if int(c) > len(ops)-i {
				return 0, errors.New("delta insert runs past the end")
			}
			i += int(c)
			size = int64(c)
		}
		total += size
		if total >= 1<<62 {
			return 0, errors.New("delta result too large")
		}
	}
	return total, nil
}

// copyArgs decodes the offset and size of a copy instruction whose
// first byte is c from the bytes after it, and returns how many it took.
func copyArgs(c byte, b []byte) (off, size int64, n int, err error) {
	for k := uint(0); k < 4; k++ {
		if c&(1<<k) != 0 {
			if n >= len(b) {
				return 0, 0, 0, errors.New("delta copy runs past the end")
			}
			off |= int64(b[n]) << (8 * k)
			n++
		}
	}
	for k := uint(0); k < 3; k++ {
		if c&(0x10<<k) != 0 {
			if n >= len(b) {
				return 0, 0, 0, errors.New("delta copy runs past the end")
			}
			size |= int64(b[n]) << (8 * k)
			n++
		}
	}
	if size == 0 {
		size = 0x10000
	}
	return off, size, n, nil
}

// runDelta appends the result of instructions ops, already checked by
// deltaOutput, to out.
func runDelta(out, base, ops []byte) []byte {
	for i := 0; i < len(ops); {
		c := ops[i]
		i++
		if c&0x80 != 0 {
			off, size, n, _ := copyArgs(c, ops[i:])
			i += n
			out = append(out, base[off:off+size]...)
			continue
		}
		out = append(out, ops[i:i+int(c)]...)
		i += int(c)
	}
	return out
}

// ApplyDelta builds the result of git delta d against base, checked as a pack's deltas are.
func ApplyDelta(base, d []byte) ([]byte, error) { return applyDelta(base, d, false) }
