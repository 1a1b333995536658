package odb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRetiredPackIsNoLongerRead repacks a repository whose pack the DB has open, as a batch
// joins its packs, and checks that after Retire the old pack is out of the list while its
// object is still read, from the pack that took it over.
func TestRetiredPackIsNoLongerRead(t *testing.T) {
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	firstHex := strings.TrimSpace(gitInput(t, dir, []byte("first\n"), "hash-object", "-w", "--stdin"))
	first := parseID(t, firstHex)
	packs := filepath.Join(objectsDir(t, dir), "pack", "pack")
	gitInput(t, dir, []byte(firstHex+"\n"), "pack-objects", "-q", packs)
	git(t, dir, "prune-packed")
	db := openDB(t, dir)
	if _, _, err := db.Read(first, 1<<20); err != nil {
		t.Fatal(err)
	}
	old := db.dirs[0].packList()
	if len(old) != 1 {
		t.Fatalf("%d packs open; want 1", len(old))
	}
	secondHex := strings.TrimSpace(gitInput(t, dir, []byte("second\n"), "hash-object", "-w", "--stdin"))
	gitInput(t, dir, []byte(firstHex+"\n"+secondHex+"\n"), "pack-objects", "-q", packs)
	git(t, dir, "prune-packed")
	for _, ext := range []string{".idx", ".pack"} {
		if err := os.Remove(old[0].base + ext); err != nil {
			t.Fatal(err)
		}
	}
	db.Retire([]string{old[0].base})
	for _, p := range db.dirs[0].packList() {
		if p == old[0] {
			t.Fatalf("the retired pack %s is still read", p.base)
		}
	}
	typ, data, err := db.Read(first, 1<<20)
	if err != nil || typ != Blob || string(data) != "first\n" {
		t.Fatalf("reading the object of the retired pack: %v %q %v; want the blob from the new pack", typ, data, err)
	}
	if got := db.dirs[0].packList(); len(got) != 1 || got[0] == old[0] {
		t.Errorf("packs read after the retirement: %d; want the new one only", len(got))
	}
}
