package odb

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPackAddedAfterOpen checks that objects packed after Open, into a
// pack the DB has never seen, are found on the next miss.
func TestPackAddedAfterOpen(t *testing.T) {
	dir := copyRepo(t, generatedRepo(t), "added")
	db := openDB(t, dir)
	before := len(db.dirs[0].packList())
	blob := commitPacked(t, dir, "after-open.txt", "written after Open\n")
	head := parseID(t, git(t, dir, "rev-parse", "HEAD"))
	if _, err := os.Stat(loosePath(objectsDir(t, dir), &blob)); !os.IsNotExist(err) {
		t.Fatalf("the new blob is still loose after repack: %v", err)
	}
	typ, data, err := db.Read(blob, -1)
	if err != nil || typ != Blob || string(data) != "written after Open\n" {
		t.Fatalf("Read of a blob packed after Open = %v %q %v", typ, data, err)
	}
	if !db.Has(head) {
		t.Fatal("Has of a commit packed after Open = false")
	}
	if after := len(db.dirs[0].packList()); after != before+1 {
		t.Fatalf("%d packs open after the miss, want %d", after, before+1)
	}
}

// commitPacked commits a file of the given name and content on main in the repository at
// dir, repacks it into a new pack, and returns the file's blob id.
func commitPacked(t *testing.T, dir, name, content string) [20]byte {
	t.Helper()
	git(t, dir, "checkout", "-q", "main")
	writeFile(t, filepath.Join(dir, name), content)
	git(t, dir, "add", name)
	git(t, dir, "commit", "-q", "-m", name)
	git(t, dir, "repack", "-d", "-q")
	return parseID(t, git(t, dir, "rev-parse", "HEAD:"+name))
}

// TestMissRescansOnlyOnChange checks that a miss lists objects/pack
// only when the folder changed.
func TestMissRescansOnlyOnChange(t *testing.T) {
	dir := copyRepo(t, generatedRepo(t), "miss")
	packDir := filepath.Join(objectsDir(t, dir), "pack")
	old := mustStat(t, packDir).ModTime().Add(-time10s)
	if err := os.Chtimes(packDir, old, old); err != nil {
		t.Fatal(err)
	}
	db := openDB(t, dir)
	var missing [20]byte
	missing[0] = 0xab
	if _, _, err := db.Read(missing, -1); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Read of a missing object: %v, want ErrNotFound", err)
	}
	d := db.dirs[0]
	if !d.seenMod.Equal(mustStat(t, packDir).ModTime()) {
		t.Fatalf("a settled pack folder was not remembered: %v", d.seenMod)
	}
	listed := d.listings
	for i := 0; i < 3; i++ {
		db.Has(missing)
	}
	if d.listings != listed {
		t.Fatalf("misses listed an unchanged pack folder %d times", d.listings-listed)
	}
	now := mustStat(t, packDir).ModTime().Add(time10s)
	if err := os.Chtimes(packDir, now, now); err != nil {
		t.Fatal(err)
	}
	if db.Has(missing) {
		t.Fatal("Has of a missing object = true")
	}
	if d.listings != listed+1 {
		t.Fatalf("a miss after the pack folder changed listed it %d times, want once", d.listings-listed)
	}
}

// TestPackDeletedAfterOpen checks that a pack deleted after it was
// opened is still read from its map.
func TestPackDeletedAfterOpen(t *testing.T) {
	dir := copyRepo(t, generatedRepo(t), "deleted")
	db := openDB(t, dir)
	old := packFiles(t, dir)
	git(t, dir, "repack", "-adf", "-q", "--depth=10")
	for _, idx := range old {
		if _, err := os.Stat(idx); !os.IsNotExist(err) {
			t.Fatalf("%s still there after repack: %v", idx, err)
		}
	}
	n := eachGitObject(t, dir, func(o gitObject) { checkObject(t, db, o) })
	if len(db.dirs[0].packList()) != len(old) {
		t.Fatalf("reads of objects in deleted packs opened new packs")
	}
	t.Logf("%d objects read from deleted packs", n)
}

// TestAlternates reads objects that are only in an alternate objects
// folder.
func TestAlternates(t *testing.T) {
	src := generatedRepo(t)
	dir := filepath.Join(t.TempDir(), "borrower")
	git(t, t.TempDir(), "clone", "-q", "--shared", "--no-checkout", src, dir)
	if n := len(packFiles(t, dir)); n != 0 {
		t.Fatalf("a shared clone has %d packs of its own", n)
	}
	checkConformance(t, dir)
}

// TestNotFound checks the error for an object that is nowhere.
func TestNotFound(t *testing.T) {
	db := openDB(t, generatedRepo(t))
	id := parseID(t, strings.Repeat("0", 40))
	if _, _, err := db.Read(id, -1); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), hexID(id)) {
		t.Fatalf("Read: %v, want ErrNotFound naming the object", err)
	}
	if _, _, err := db.Size(id); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Size: %v, want ErrNotFound", err)
	}
	if db.Has(id) {
		t.Fatal("Has = true")
	}
	db.Close()
	if _, _, err := db.Read(id, -1); !errors.Is(err, ErrClosed) {
		t.Fatalf("Read after Close: %v, want ErrClosed", err)
	}
}

const time10s = 10e9

// mustStat stats name.
func mustStat(t *testing.T, name string) os.FileInfo {
	t.Helper()
	st, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestHasSeenListsNothing checks that HasSeen finds what is packed or loose without listing
// the pack folder, even while its last change is too recent to trust, and that a pack
// written since is found once Rescan has looked.
func TestHasSeenListsNothing(t *testing.T) {
	dir := copyRepo(t, generatedRepo(t), "seen")
	db := openDB(t, dir)
	head := parseID(t, git(t, dir, "rev-parse", "main"))
	d := db.dirs[0]
	listed := d.listings
	var missing [20]byte
	missing[0] = 0xcd
	for i := 0; i < 3; i++ {
		if !db.HasSeen(head) || db.HasSeen(missing) {
			t.Fatal("HasSeen of a packed commit and of a missing object are wrong")
		}
	}
	if d.listings != listed {
		t.Fatalf("HasSeen listed the pack folder %d times", d.listings-listed)
	}
	blob := commitPacked(t, dir, "seen.txt", "packed after Open\n")
	if db.HasSeen(blob) {
		t.Fatal("HasSeen found an object of a pack it has not opened")
	}
	if err := db.Rescan(); err != nil {
		t.Fatal(err)
	}
	if !db.HasSeen(blob) {
		t.Fatal("HasSeen does not find an object of the pack Rescan opened")
	}
}
