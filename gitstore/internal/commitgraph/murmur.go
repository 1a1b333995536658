package commitgraph

import "math/bits"

// murmur3 is the 32-bit MurmurHash3 of data with seed. With signedBytes
// set it reproduces the hash of Bloom filter version 1: git read the
// path's bytes as signed chars there (on the usual platforms), so a byte
// with the high bit set is sign-extended to 32 bits before it is shifted
// into place. Version 2 reads bytes as unsigned, the standard hash.
func murmur3(seed uint32, data string, signedBytes bool) uint32 {
	const (
		c1 = 0xcc9e2d51
		c2 = 0x1b873593
	)
	b := func(i int) uint32 {
		if signedBytes {
			return uint32(int32(int8(data[i])))
		}
		return uint32(data[i])
	}
	h := seed
	n := len(data) / 4
	for i := 0; i < n; i++ {
		k := b(4*i) | b(4*i+1)<<8 | b(4*i+2)<<16 | b(4*i+3)<<24
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
		h = bits.RotateLeft32(h, 13)*5 + 0xe6546b64
	}
	tail := 4 * n
	var k uint32
	switch len(data) & 3 {
	case 3:
		k ^= b(tail+2) << 16
		fallthrough
	case 2:
		k ^= b(tail+1) << 8
		fallthrough
	case 1:
		k ^= b(tail)
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
	}
	h ^= uint32(len(data))
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}
