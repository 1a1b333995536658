package odb

// radixSort sorts non-negative offsets in ascending order, sixteen bits
// a pass, with as many passes as the largest offset needs.
func radixSort(a []int64) {
	if len(a) < 2 {
		return
	}
	var max int64
	for _, v := range a {
		max = max | v
	}
	tmp := make([]int64, len(a))
	src, dst := a, tmp
	var count [1 << 16]int
	for shift := uint(0); shift < 64 && max>>shift != 0; shift += 16 {
		clear(count[:])
		for _, v := range src {
			count[(v>>shift)&0xffff]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, v := range src {
			d := (v >> shift) & 0xffff
			dst[count[d]] = v
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &a[0] {
		copy(a, src)
	}
}
