package odb

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// handEntry is an entry of a pack written by hand: its name in the idx,
// its type, its base for a REF delta, and its inflated data.
type handEntry struct {
	id   [20]byte
	typ  int
	base [20]byte
	data []byte
}

// writeHandPack writes a pack and a version 2 idx of entries into a new
// objects folder and returns the folder. It lets tests make packs git
// would refuse to write, such as deltas in a cycle.
func writeHandPack(t *testing.T, entries []handEntry) string {
	t.Helper()
	var pack bytes.Buffer
	pack.WriteString("PACK")
	binary.Write(&pack, binary.BigEndian, uint32(2))
	binary.Write(&pack, binary.BigEndian, uint32(len(entries)))
	offsets := make([]int, len(entries))
	for i, e := range entries {
		offsets[i] = pack.Len()
		pack.Write(entryHeader(e.typ, len(e.data)))
		if e.typ == refDelta {
			pack.Write(e.base[:])
		}
		zw := zlib.NewWriter(&pack)
		zw.Write(e.data)
		zw.Close()
	}
	sum := sha1.Sum(pack.Bytes())
	pack.Write(sum[:])
	dir := filepath.Join(t.TempDir(), "objects")
	if err := os.MkdirAll(filepath.Join(dir, "pack"), 0o755); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "pack", "pack-hand")
	writeBytes(t, base+".pack", pack.Bytes())
	writeBytes(t, base+".idx", handIdx(entries, offsets, sum[:]))
	return dir
}

// entryHeader encodes a pack entry's type and size.
func entryHeader(typ, size int) []byte {
	b := []byte{byte(typ<<4) | byte(size&15)}
	size >>= 4
	for size > 0 {
		b[len(b)-1] |= 0x80
		b = append(b, byte(size&0x7f))
		size >>= 7
	}
	return b
}

// handIdx writes a version 2 idx for entries at offsets.
func handIdx(entries []handEntry, offsets []int, packSum []byte) []byte {
	order := make([]int, len(entries))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool {
		return bytes.Compare(entries[order[a]].id[:], entries[order[b]].id[:]) < 0
	})
	var b bytes.Buffer
	b.Write(idxMagic)
	binary.Write(&b, binary.BigEndian, uint32(2))
	for k := 0; k < 256; k++ {
		n := 0
		for _, e := range entries {
			if int(e.id[0]) <= k {
				n++
			}
		}
		binary.Write(&b, binary.BigEndian, uint32(n))
	}
	for _, i := range order {
		b.Write(entries[i].id[:])
	}
	b.Write(make([]byte, 4*len(entries)))
	for _, i := range order {
		binary.Write(&b, binary.BigEndian, uint32(offsets[i]))
	}
	b.Write(packSum)
	sum := sha1.Sum(b.Bytes())
	b.Write(sum[:])
	return b.Bytes()
}

// writeBytes writes a file.
func writeBytes(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
