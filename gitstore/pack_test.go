package gitstore

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"
)

// looseContents returns the content of every loose object of r.
func looseContents(t testing.TB, r *Repo) map[Hash][]byte {
	t.Helper()
	ids, err := listLoose(r.Objects().objectsDir())
	if err != nil {
		t.Fatal(err)
	}
	out := map[Hash][]byte{}
	for _, h := range ids {
		b, err := r.Objects().readObject(plumbing.AnyObject, h, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		out[h] = b
	}
	return out
}

// checkReadable reads every object through a fresh Open and through the
// git command line.
func checkReadable(t testing.TB, dir string, want map[Hash][]byte) {
	t.Helper()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var ids strings.Builder
	for h, content := range want {
		got, err := r.Objects().readObject(plumbing.AnyObject, h, 1<<20)
		if err != nil || string(got) != string(content) {
			t.Errorf("object %s after packing: %q, %v; want %q", h, got, err, content)
		}
		ids.WriteString(h.String() + "\n")
	}
	if out := gitIn(t, dir, ids.String(), "cat-file", "--batch-check"); strings.Contains(out, "missing") {
		t.Errorf("git cat-file --batch-check lacks objects:\n%s", out)
	}
	gitRun(t, dir, "fsck", "--strict", "--no-dangling")
}

// countObjects returns `git count-objects -v` as a map.
func countObjects(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(gitRun(t, dir, "count-objects", "-v")), "\n") {
		k, v, _ := strings.Cut(line, ": ")
		out[k] = v
	}
	return out
}

func TestPackLoose(t *testing.T) {
	r := diskRepo(false)(t)
	buildHistory(t, r)
	unreachable := mustBlob(t, r, "written, never referenced")
	orphanTree := mustTree(t, r, file("orphan", unreachable))
	mustCommit(t, r, orphanTree, "unreferenced commit")
	want := looseContents(t, r)
	// A miss loads go-git's list of packs, which PackLoose must refresh.
	if err := r.storer.HasEncodedObject(plumbing.NewHash("1234567890123456789012345678901234567890")); err == nil {
		t.Fatal("found an object that was never written")
	}
	n, err := r.Packs().PackLoose()
	if err != nil || n != len(want) {
		t.Fatalf("PackLoose = %d, %v; want %d", n, err, len(want))
	}
	if _, err := r.Git().BlobObject(unreachable); err != nil {
		t.Errorf("go-git's storage of the same Repo lost a packed object: %v", err)
	}
	counts := countObjects(t, r.GitDir())
	wantCounts := map[string]string{"count": "0", "in-pack": fmt.Sprint(n), "packs": "1", "garbage": "0"}
	for k, v := range wantCounts {
		if counts[k] != v {
			t.Errorf("git count-objects %s = %s, want %s", k, counts[k], v)
		}
	}
	checkReadable(t, r.GitDir(), want)
	if _, err := r.Objects().ReadBlob(unreachable, 100); err != nil {
		t.Errorf("unreachable blob after packing: %v", err)
	}
	checkObjectsDir(t, r, []string{"info", "pack"})
}

// checkObjectsDir checks that the objects folder holds only names.
func checkObjectsDir(t testing.TB, r *Repo, names []string) {
	t.Helper()
	entries, err := os.ReadDir(r.Objects().objectsDir())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if diff := cmp.Diff(names, got); diff != "" {
		t.Errorf("objects folder after packing (-want +got):\n%s", diff)
	}
}

func TestPackLooseAgain(t *testing.T) {
	r := diskRepo(true)(t)
	buildHistory(t, r)
	if _, err := r.Packs().PackLoose(); err != nil {
		t.Fatal(err)
	}
	if n, err := r.Packs().PackLoose(); n != 0 || err != nil {
		t.Errorf("PackLoose with nothing loose = %d, %v", n, err)
	}
	mustBlob(t, r, "one more")
	if n, err := r.Packs().PackLoose(); n != 1 || err != nil {
		t.Errorf("PackLoose with one loose object = %d, %v", n, err)
	}
	if got := countObjects(t, r.GitDir())["packs"]; got != "2" {
		t.Errorf("git count-objects packs = %s, want 2", got)
	}
}

func TestPackLooseLock(t *testing.T) {
	r := diskRepo(true)(t)
	buildHistory(t, r)
	lock := filepath.Join(r.Objects().objectsDir(), packLockName)
	if err := os.WriteFile(lock, []byte("1 elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := len(looseContents(t, r))
	if n, err := r.Packs().PackLoose(); n != 0 || err != nil {
		t.Errorf("PackLoose while locked = %d, %v; want 0, nil", n, err)
	}
	if got := len(looseContents(t, r)); got != before {
		t.Errorf("PackLoose while locked left %d loose objects of %d", got, before)
	}
	old := time.Now().Add(-2 * packLockStale)
	if err := os.Chtimes(lock, old, old); err != nil {
		t.Fatal(err)
	}
	if n, err := r.Packs().PackLoose(); n != before || err != nil {
		t.Errorf("PackLoose with a stale lock = %d, %v; want %d", n, err, before)
	}
	if _, err := os.Stat(lock); !os.IsNotExist(err) {
		t.Errorf("the lock is still there after packing: %v", err)
	}
}

func TestPackLooseCorruptObject(t *testing.T) {
	r := diskRepo(true)(t)
	buildHistory(t, r)
	bad := filepath.Join(r.Objects().objectsDir(), "ab", strings.Repeat("c", 38))
	if err := os.MkdirAll(filepath.Dir(bad), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("not zlib"), 0o444); err != nil {
		t.Fatal(err)
	}
	before, err := listLoose(r.Objects().objectsDir())
	if err != nil {
		t.Fatal(err)
	}
	n, err := r.Packs().PackLoose()
	if err == nil || !strings.Contains(err.Error(), "abcccc") {
		t.Errorf("PackLoose with a corrupt object = %d, %v; want an error naming it", n, err)
	}
	after, _ := listLoose(r.Objects().objectsDir())
	if len(after) != len(before) {
		t.Errorf("a failed PackLoose deleted %d loose objects", len(before)-len(after))
	}
	packs, _ := os.ReadDir(filepath.Join(r.Objects().objectsDir(), "pack"))
	if len(packs) != 0 {
		t.Errorf("a failed PackLoose left files in objects/pack: %v", packs)
	}
}

func TestPackLooseMemory(t *testing.T) {
	r := OpenMemory()
	mustBlob(t, r, "x")
	n, err := r.Packs().PackLoose()
	est, err2 := r.Packs().LooseObjectEstimate()
	packed, err3 := r.Packs().MaybePack(1)
	if n != 0 || est != 0 || packed || err != nil || err2 != nil || err3 != nil {
		t.Errorf("in memory: PackLoose = %d, %v; LooseObjectEstimate = %d, %v; MaybePack = %v, %v",
			n, err, est, err2, packed, err3)
	}
}

// fillFanout17 writes blobs until objects/17 holds two objects and
// returns how many it holds.
func fillFanout17(t *testing.T, r *Repo) int {
	t.Helper()
	in17 := 0
	for i := 0; in17 < 2; i++ {
		if h := mustBlob(t, r, fmt.Sprintf("blob %d", i)); h[0] == 0x17 {
			in17++
		}
	}
	junk := filepath.Join(r.Objects().objectsDir(), "17", "tmp_obj_123456")
	if err := os.WriteFile(junk, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return in17
}

func TestLooseObjectEstimate(t *testing.T) {
	r := diskRepo(true)(t)
	if n, err := r.Packs().LooseObjectEstimate(); n != 0 || err != nil {
		t.Errorf("LooseObjectEstimate of a new repository = %d, %v", n, err)
	}
	in17 := fillFanout17(t, r)
	if n, err := r.Packs().LooseObjectEstimate(); n != in17*256 || err != nil {
		t.Errorf("LooseObjectEstimate = %d, %v; want %d", n, err, in17*256)
	}
}

func TestMaybePack(t *testing.T) {
	r := diskRepo(true)(t)
	fillFanout17(t, r)
	for _, threshold := range []int{0, -1, 512, AutoPackThreshold} {
		if packed, err := r.Packs().MaybePack(threshold); packed || err != nil {
			t.Errorf("MaybePack(%d) = %v, %v; want false", threshold, packed, err)
		}
	}
	if got := countObjects(t, r.GitDir())["packs"]; got != "0" {
		t.Fatalf("git count-objects packs = %s before packing", got)
	}
	if packed, err := r.Packs().MaybePack(511); !packed || err != nil {
		t.Errorf("MaybePack(511) = %v, %v; want true", packed, err)
	}
	if counts := countObjects(t, r.GitDir()); counts["count"] != "0" || counts["packs"] != "1" {
		t.Errorf("git count-objects after MaybePack = %v", counts)
	}
}

// TestLooseCountSkipsOnlyWhileBelow checks that the estimate of loose objects is read again
// once the objects written since could have taken it past the threshold.
func TestLooseCountSkipsOnlyWhileBelow(t *testing.T) {
	var c looseCount
	if c.below(100) {
		t.Fatal("below with no estimate made")
	}
	c.estimated(90)
	for range 10 {
		if !c.below(100) {
			t.Fatalf("not below at %d written", c.since)
		}
		c.wrote()
	}
	c.wrote()
	if c.below(100) {
		t.Error("below after 11 objects written on an estimate of 90")
	}
}
