package odb

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// FuzzIdx parses idx files: a real one, truncated and altered ones.
func FuzzIdx(f *testing.F) {
	idxFile, _ := smallPack(f, false)
	real := readFile(f, idxFile)
	f.Add(real)
	f.Add(real[:len(real)/2])
	f.Add(real[8:])
	bad := bytes.Clone(real)
	binary.BigEndian.PutUint32(bad[8+4*10:], 0xffffffff)
	f.Add(bad)
	large := bytes.Clone(real)
	n := int(binary.BigEndian.Uint32(large[8+4*255:]))
	binary.BigEndian.PutUint32(large[8+1024+28*n-4:], 0x80000005)
	f.Add(large)
	f.Fuzz(func(t *testing.T, data []byte) {
		x, err := parseIdx("fuzz.idx", data)
		if err != nil {
			return
		}
		for i := 0; i < x.n && i < 300; i++ {
			var id [20]byte
			copy(id[:], x.name(i))
			x.find(&id)
			x.offset(i)
		}
	})
}

// FuzzPackEntry reads every object of a pack held in memory: real packs
// with offset and name deltas, truncated and altered ones.
func FuzzPackEntry(f *testing.F) {
	for _, ref := range []bool{false, true} {
		idxFile, packFile := smallPack(f, ref)
		idx, pack := readFile(f, idxFile), readFile(f, packFile)
		f.Add(idx, pack)
		trailer := pack[len(pack)-20:]
		f.Add(idx, append(bytes.Clone(pack[:len(pack)/2]), trailer...))
		for _, at := range []int{12, 13, 40, len(pack) / 3, len(pack) - 30} {
			bad := bytes.Clone(pack)
			bad[at] ^= 0x5a
			f.Add(idx, bad)
		}
	}
	f.Fuzz(func(t *testing.T, idx, pack []byte) {
		db, p, err := memPack(idx, pack)
		if err != nil {
			return
		}
		for i := 0; i < p.idx.n && i < 300; i++ {
			var id [20]byte
			copy(id[:], p.idx.name(i))
			db.Size(id)
			db.Read(id, 1<<20)
		}
	})
}

// FuzzDelta applies deltas to bases: well-formed ones and ones that copy
// past the base, run past their end or lie about their sizes.
func FuzzDelta(f *testing.F) {
	base := []byte("0123456789abcdefghijklmnopqrstuvwxyz")
	f.Add(base, []byte{36, 14, 0x91, 4, 10, 4, 'W', 'X', 'Y', 'Z'})
	f.Add(base, []byte{36, 0x80, 0x02, 0x90, 0x00})
	f.Add(base, []byte{36, 10, 0x91, 30, 10})
	f.Add(base, []byte{36, 5, 9, 'a'})
	f.Add(base, []byte{36, 1, 0})
	f.Add(base, []byte{36, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})
	f.Add([]byte{}, []byte{0, 0})
	f.Add(base, []byte{36, 3, 0xf3, 0, 0, 0, 0, 3, 0, 0})
	f.Add(base, []byte{36, 0x80, 0x80, 0x80, 0x80, 0x10, 0x91, 0, 36})
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		out, err := applyDelta(base, delta, false)
		if err != nil {
			return
		}
		_, dst, _, herr := deltaHeader(delta)
		if herr != nil || int64(len(out)) != dst {
			t.Fatalf("applyDelta made %d bytes, header says %d (%v)", len(out), dst, herr)
		}
	})
}
