package odb

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeltaCycle reads objects whose REF deltas name each other.
func TestDeltaCycle(t *testing.T) {
	x, y := [20]byte{0x11}, [20]byte{0x22}
	delta := []byte{3, 3, 3, 'a', 'b', 'c'}
	dir := writeHandPack(t, []handEntry{
		{id: x, typ: refDelta, base: y, data: delta},
		{id: y, typ: refDelta, base: x, data: delta},
	})
	db, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, id := range [][20]byte{x, y} {
		if _, _, err := db.Read(id, -1); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "cycle") {
			t.Fatalf("Read of a delta in a cycle: %v, want a corrupt cycle", err)
		}
		if _, _, err := db.Size(id); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("Size of a delta in a cycle: %v, want ErrCorrupt", err)
		}
	}
}

// TestHandPackReads checks the hand-written packs themselves: a blob
// and a REF delta on it read as expected.
func TestHandPackReads(t *testing.T) {
	x, y := [20]byte{0x11}, [20]byte{0x22}
	dir := writeHandPack(t, []handEntry{
		{id: x, typ: int(Blob), data: []byte("hello world")},
		{id: y, typ: refDelta, base: x, data: []byte{11, 8, 0x90, 5, 3, '!', '!', '!'}},
	})
	db, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	typ, data, err := db.Read(y, -1)
	if err != nil || typ != Blob || string(data) != "hello!!!" {
		t.Fatalf("Read = %v %q %v", typ, data, err)
	}
}

// corruptCopy copies the generated repository and changes its single
// pack's file with ext by fn.
func corruptCopy(t *testing.T, ext string, fn func([]byte) []byte) (dir, file string) {
	t.Helper()
	dir = copyRepo(t, generatedRepo(t), "corrupt")
	idxs := packFiles(t, dir)
	if len(idxs) != 1 {
		t.Fatalf("%d packs, want 1", len(idxs))
	}
	file = strings.TrimSuffix(idxs[0], ".idx") + ext
	b := readFile(t, file)
	os.Chmod(file, 0o644)
	writeBytes(t, file, fn(b))
	return dir, file
}

// TestCorruptIdx opens packs whose idx is truncated or altered.
func TestCorruptIdx(t *testing.T) {
	cases := map[string]func([]byte) []byte{
		"truncated": func(b []byte) []byte { return b[:len(b)/2] },
		"version":   func(b []byte) []byte { b[7] = 9; return b },
		"fanout":    func(b []byte) []byte { b[8+4*3] = 0xff; return b },
		"empty":     func(b []byte) []byte { return nil },
		"checksum":  func(b []byte) []byte { b[len(b)-30] ^= 1; return b },
	}
	for name, fn := range cases {
		t.Run(name, func(t *testing.T) {
			dir, file := corruptCopy(t, ".idx", fn)
			_, err := Open(objectsDir(t, dir))
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), filepath.Base(file)) {
				t.Fatalf("Open: %v, want ErrCorrupt naming %s", err, filepath.Base(file))
			}
		})
	}
}

// TestTruncatedPack opens a pack cut short.
func TestTruncatedPack(t *testing.T) {
	dir, file := corruptCopy(t, ".pack", func(b []byte) []byte { return b[:len(b)-100] })
	_, err := Open(objectsDir(t, dir))
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), filepath.Base(file)) {
		t.Fatalf("Open: %v, want ErrCorrupt naming %s", err, filepath.Base(file))
	}
}

// TestCorruptPackData reads every object of a pack with bytes altered
// in the middle: reads fail with ErrCorrupt, or succeed with git's
// content.
func TestCorruptPackData(t *testing.T) {
	good := generatedRepo(t)
	dir, _ := corruptCopy(t, ".pack", func(b []byte) []byte {
		for i := len(b) / 4; i < len(b)-20; i += len(b) / 9 {
			b[i] ^= 0x40
		}
		return b
	})
	db := openDB(t, dir)
	failed := 0
	eachGitObject(t, good, func(o gitObject) {
		typ, data, err := db.Read(o.id, -1)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Read(%s): %v, want ErrCorrupt", hexID(o.id), err)
			}
			failed++
			return
		}
		if typ.String() != o.typ || string(data) != string(o.data) {
			t.Fatalf("Read(%s) of a corrupt pack gave other content without an error", hexID(o.id))
		}
	})
	if failed == 0 {
		t.Fatal("no read failed on a corrupted pack")
	}
	t.Logf("%d reads failed", failed)
}

// TestMemPack checks the harness FuzzPackEntry uses: a real pack held
// in memory reads whole, and an altered one fails with ErrCorrupt.
func TestMemPack(t *testing.T) {
	for _, ref := range []bool{false, true} {
		idxFile, packFile := smallPack(t, ref)
		idx, pack := readFile(t, idxFile), readFile(t, packFile)
		db, p, err := memPack(idx, pack)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < p.idx.n; i++ {
			var id [20]byte
			copy(id[:], p.idx.name(i))
			if _, _, err := db.Read(id, -1); err != nil {
				t.Fatalf("REF deltas %v: Read(%s): %v", ref, hexID(id), err)
			}
		}
		pack[len(pack)/2] ^= 0x21
		db, p, err = memPack(idx, pack)
		if err != nil {
			t.Fatal(err)
		}
		failed := 0
		for i := 0; i < p.idx.n; i++ {
			var id [20]byte
			copy(id[:], p.idx.name(i))
			if _, _, err := db.Read(id, -1); errors.Is(err, ErrCorrupt) {
				failed++
			} else if err != nil {
				t.Fatalf("Read(%s) of an altered pack: %v, want ErrCorrupt", hexID(id), err)
			}
		}
		if failed == 0 {
			t.Fatalf("REF deltas %v: no read of an altered pack failed", ref)
		}
	}
}
