package odb

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestSmallLooseKept reads a small loose object, removes its file, and reads it again from
// what was kept: the same content, a copy that a caller may change, and the error of a
// limit it passes. A large loose object is not kept.
func TestSmallLooseKept(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "repo")
	git(t, t.TempDir(), "init", "-q", dir)
	small := parseID(t, gitInput(t, dir, []byte("small\n"), "hash-object", "-w", "--stdin"))
	large := parseID(t, gitInput(t, dir, make([]byte, smallLooseMax+1), "hash-object", "-w", "--stdin"))
	db := openDB(t, dir)
	for _, id := range [][20]byte{small, large} {
		if _, _, err := db.Read(id, -1); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(loosePath(objectsDir(t, dir), &id)); err != nil {
			t.Fatal(err)
		}
	}
	typ, data, err := db.Read(small, -1)
	if err != nil || typ != Blob || string(data) != "small\n" {
		t.Fatalf("second Read of the small object = %v %q %v; want the blob kept", typ, data, err)
	}
	data[0] = 'X'
	if _, again, err := db.Read(small, -1); err != nil || string(again) != "small\n" {
		t.Fatalf("a Read after the caller changed its copy = %q, %v", again, err)
	}
	if _, _, err := db.Read(small, 3); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Read with a limit under the kept object's size: %v; want ErrTooLarge", err)
	}
	if _, _, err := db.Read(large, -1); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Read of a removed large object: %v; want ErrNotFound, as it is not kept", err)
	}
}
