package odb

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkConformance reads every object of the repository at dir through
// a new DB and compares type, size and content with git's; it also
// checks the limit rule. It returns the number of objects.
func checkConformance(t *testing.T, dir string) int {
	t.Helper()
	db := openDB(t, dir)
	n := eachGitObject(t, dir, func(o gitObject) {
		checkObject(t, db, o)
	})
	if n == 0 {
		t.Fatalf("git lists no objects in %s", dir)
	}
	return n
}

// checkObject compares one object read by db with git's.
func checkObject(t *testing.T, db *DB, o gitObject) {
	t.Helper()
	h := hexID(o.id)
	typ, size, err := db.Size(o.id)
	if err != nil || typ.String() != o.typ || size != int64(len(o.data)) {
		t.Fatalf("Size(%s) = %v %d %v, git: %s %d", h, typ, size, err, o.typ, len(o.data))
	}
	if size > 0 {
		_, _, err := db.Read(o.id, size-1)
		if !errors.Is(err, ErrTooLarge) {
			t.Fatalf("Read(%s, %d) of a %d-byte object: %v, want ErrTooLarge", h, size-1, size, err)
		}
	}
	typ, data, err := db.Read(o.id, size)
	if err != nil || typ.String() != o.typ || !bytes.Equal(data, o.data) {
		t.Fatalf("Read(%s) = %v, %d bytes, %v; git: %s, %d bytes (equal %v)", h, typ, len(data), err, o.typ, len(o.data), bytes.Equal(data, o.data))
	}
	if !db.Has(o.id) {
		t.Fatalf("Has(%s) = false", h)
	}
}

// TestConformanceProject reads every object of this project's own
// repository.
func TestConformanceProject(t *testing.T) {
	n := checkConformance(t, ".")
	t.Logf("%d objects", n)
}

// TestConformanceGenerated reads every object of a generated repository
// packed with offset deltas in long chains.
func TestConformanceGenerated(t *testing.T) {
	dir := generatedRepo(t)
	n := checkConformance(t, dir)
	t.Logf("%d objects", n)
}

// TestGeneratedHasLongChains checks that the generated repository is
// what the other tests take it for: offset deltas, chains far deeper
// than git's default, no rev file.
func TestGeneratedHasLongChains(t *testing.T) {
	dir := generatedRepo(t)
	n := maxChain(t, dir)
	t.Logf("longest delta chain %d", n)
	if n < 200 {
		t.Fatalf("longest delta chain %d, want at least 200", n)
	}
	types := entryTypes(t, dir)
	if types[ofsDelta] == 0 || types[refDelta] != 0 {
		t.Fatalf("entry types %v, want offset deltas only", types)
	}
	for _, idx := range packFiles(t, dir) {
		if _, err := os.Stat(strings.TrimSuffix(idx, ".idx") + ".rev"); !os.IsNotExist(err) {
			t.Fatalf("%s has a rev file (%v); this test wants the sorted offsets built from the idx", idx, err)
		}
	}
}

// TestConformanceRefDeltas reads every object of a copy of the
// generated repository repacked with deltas that name their base.
func TestConformanceRefDeltas(t *testing.T) {
	dir := copyRepo(t, generatedRepo(t), "ref")
	git(t, dir, "-c", "repack.useDeltaBaseOffset=false", "repack", "-adf", "-q", "--window=250", "--depth=50")
	types := entryTypes(t, dir)
	if types[refDelta] < 1000 || types[ofsDelta] != 0 {
		t.Fatalf("entry types %v, want many REF deltas and no offset delta", types)
	}
	if n := maxChain(t, dir); n < 40 {
		t.Fatalf("longest delta chain %d, want at least 40", n)
	}
	checkConformance(t, dir)
}

// TestConformanceRevFile reads every object of a copy of the generated
// repository repacked with a rev file.
func TestConformanceRevFile(t *testing.T) {
	dir := copyRepo(t, generatedRepo(t), "rev")
	git(t, dir, "-c", "pack.writeReverseIndex=true", "repack", "-ad", "-q")
	revs, _ := filepath.Glob(filepath.Join(objectsDir(t, dir), "pack", "*.rev"))
	if len(revs) != 1 {
		t.Fatalf("rev files %v, want one", revs)
	}
	db := openDB(t, dir)
	eachGitObject(t, dir, func(o gitObject) { checkObject(t, db, o) })
}

// TestConformanceMixed reads a repository whose objects are partly
// packed, partly loose.
func TestConformanceMixed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mixed")
	git(t, t.TempDir(), "init", "-q", "-b", "main", dir)
	fastImport(t, dir, history(30, 12, 2, false))
	git(t, dir, "gc", "-q")
	git(t, dir, "checkout", "-q", "main")
	for i := 0; i < 5; i++ {
		writeFile(t, filepath.Join(dir, "d0", "e0", "file0.txt"), fmt.Sprintf("loose version %d\n", i))
		writeFile(t, filepath.Join(dir, fmt.Sprintf("new%d.txt", i)), strings.Repeat("new file\n", i+1))
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-q", "-m", fmt.Sprintf("loose %d", i))
	}
	counts := git(t, dir, "count-objects", "-v")
	if !strings.Contains(counts, "\nin-pack: ") || strings.HasPrefix(counts, "count: 0\n") {
		t.Fatalf("want loose and packed objects:\n%s", counts)
	}
	checkConformance(t, dir)
}

// writeFile writes a file, making its folder.
func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestConformanceIdxVersions reads every object of copies of the
// generated repository whose idx git rewrote as version 1, and as
// version 2 with all but the first offsets in the large-offset table.
func TestConformanceIdxVersions(t *testing.T) {
	for name, version := range map[string]string{"v1": "1", "large": "2,1000"} {
		t.Run(name, func(t *testing.T) {
			dir := copyRepo(t, generatedRepo(t), name)
			idx := packFiles(t, dir)[0]
			os.Remove(idx)
			git(t, dir, "index-pack", "--index-version="+version, "-o", idx, strings.TrimSuffix(idx, ".idx")+".pack")
			db := openDB(t, dir)
			eachGitObject(t, dir, func(o gitObject) { checkObject(t, db, o) })
			x := db.dirs[0].packList()[0].idx
			if name == "v1" && x.version != 1 || name == "large" && len(x.large) < 1000*8 {
				t.Fatalf("idx version %d with %d large offsets", x.version, len(x.large)/8)
			}
		})
	}
}

// TestConformanceReadAt reads every object of the generated repository
// with files read through ReadAt instead of memory maps, as on systems
// without them, from several goroutines.
func TestConformanceReadAt(t *testing.T) {
	noMmap = true
	defer func() { noMmap = false }()
	dir := generatedRepo(t)
	db := openDB(t, dir)
	if p := db.dirs[0].packList()[0]; p.data.b != nil || p.data.r == nil {
		t.Fatal("the pack was mapped")
	}
	var objs []gitObject
	eachGitObject(t, dir, func(o gitObject) { objs = append(objs, o) })
	readAllConcurrently(t, db, objs, 4)
}
