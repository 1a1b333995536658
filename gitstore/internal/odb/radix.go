package odb

// radixBits is the width of a radix sort digit: its counts fit on the
// stack, and offsets below 8 GiB take at most three passes.
const radixBits = 11

// radixSort sorts non-negative offsets in ascending order, one digit a
// pass, with as many passes as the largest offset needs.
func radixSort(a []int64) {
	if len(a) < 2 {
		return
	}
	var max int64
	for _, v := range a {
		max |= v
	}
	tmp := make([]int64, len(a))
	src, dst := a, tmp
	const mask = 1<<radixBits - 1
	for shift := uint(0); shift < 63 && max>>shift != 0; shift += radixBits {
		var count [1 << radixBits]int
		for _, v := range src {
			count[(v>>shift)&mask]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, v := range src {
			d := (v >> shift) & mask
			dst[count[d]] = v
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &a[0] {
		copy(a, src)
	}
}
