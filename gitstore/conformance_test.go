package gitstore

import (
	"errors"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/google/go-cmp/cmp"
)

// newRepoFunc makes a fresh, empty repository for one test.
type newRepoFunc func(t *testing.T) *Repo

func diskRepo(bare bool) newRepoFunc {
	return func(t *testing.T) *Repo {
		t.Helper()
		r, err := Init(t.TempDir(), InitOptions{Bare: bare})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		return r
	}
}

func memoryRepo(t *testing.T) *Repo { return OpenMemory() }

func TestConformanceDisk(t *testing.T)     { runConformance(t, diskRepo(false)) }
func TestConformanceDiskBare(t *testing.T) { runConformance(t, diskRepo(true)) }
func TestConformanceMemory(t *testing.T)   { runConformance(t, memoryRepo) }

// runConformance checks the behaviour every kind of Repo must share.
func runConformance(t *testing.T, newRepo newRepoFunc) {
	tests := map[string]func(*testing.T, *Repo){
		"Blobs":           testBlobs,
		"Trees":           testTrees,
		"Commits":         testCommits,
		"EntryAt":         testEntryAt,
		"ReplacePath":     testReplacePath,
		"TreeFS":          testTreeFS,
		"RefsCAS":         testRefsCAS,
		"RefsList":        testRefsList,
		"RefConflicts":    testRefConflicts,
		"Head":            testHead,
		"WalkFirstParent": testWalkFirstParent,
		"ResolveRevision": testResolveRevision,
		"ConcurrentCAS":   testConcurrentCAS,
	}
	for name, fn := range tests {
		t.Run(name, func(t *testing.T) { fn(t, newRepo(t)) })
	}
}

func mustBlob(t testing.TB, r *Repo, s string) Hash {
	t.Helper()
	h, err := r.Writes().WriteBlob([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func mustTree(t testing.TB, r *Repo, entries ...TreeEntry) Hash {
	t.Helper()
	h, err := r.Writes().WriteTree(entries)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

var testSig = object.Signature{Name: "Ada Lovelace", Email: "ada@example.com",
	When: time.Date(2025, 3, 1, 12, 0, 0, 0, time.FixedZone("", 3600))}

func mustCommit(t testing.TB, r *Repo, tree Hash, msg string, parents ...Hash) Hash {
	t.Helper()
	h, err := r.Writes().WriteCommit(CommitSpec{Tree: tree, Parents: parents, Author: testSig, Committer: testSig, Message: msg})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func file(name string, h Hash) TreeEntry {
	return TreeEntry{Name: name, Mode: filemode.Regular, Hash: h}
}
func dir(name string, h Hash) TreeEntry { return TreeEntry{Name: name, Mode: filemode.Dir, Hash: h} }

func testBlobs(t *testing.T, r *Repo) {
	tests := map[string][]byte{
		"empty":  {},
		"text":   []byte("---\nname: pdf-tools\n---\nbody\n"),
		"binary": {0, 1, 2, 0xff, 0, '\n'},
	}
	for name, data := range tests {
		t.Run(name, func(t *testing.T) {
			h, err := r.Writes().WriteBlob(data)
			if err != nil {
				t.Fatal(err)
			}
			if want := plumbing.ComputeHash(plumbing.BlobObject, data); h != want {
				t.Errorf("WriteBlob id = %s, want git's %s", h, want)
			}
			again, err := r.Writes().WriteBlob(data)
			if err != nil || again != h {
				t.Errorf("writing the same blob twice = %s, %v; want %s", again, err, h)
			}
			got, err := r.Objects().ReadBlob(h, int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(data, got, cmp.Comparer(func(a, b []byte) bool { return string(a) == string(b) })); diff != "" {
				t.Errorf("ReadBlob (-want +got):\n%s", diff)
			}
		})
	}
}

func testTrees(t *testing.T, r *Repo) {
	blob := mustBlob(t, r, "x")
	sub := mustTree(t, r, file("f", blob))
	h := mustTree(t, r, dir("a", sub), file("a.txt", blob), file("a-b", blob),
		TreeEntry{Name: "run.sh", Mode: filemode.Executable, Hash: blob},
		TreeEntry{Name: "link", Mode: filemode.Symlink, Hash: blob})
	got, err := r.Objects().ReadTree(h)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range got {
		names = append(names, e.Name)
	}
	// A folder sorts as if its name ended in "/", after "a-b" and "a.txt".
	if diff := cmp.Diff([]string{"a-b", "a.txt", "a", "link", "run.sh"}, names); diff != "" {
		t.Errorf("tree order (-want +got):\n%s", diff)
	}
	empty, err := r.Objects().ReadTree(ZeroHash)
	if err != nil || len(empty) != 0 {
		t.Errorf("ReadTree(ZeroHash) = %v, %v; want no entries", empty, err)
	}
	if _, err := r.Writes().WriteTree([]TreeEntry{file("x", blob), file("x", blob)}); err == nil {
		t.Error("WriteTree accepted a duplicate name")
	}
	if _, err := r.Writes().WriteTree([]TreeEntry{file("x", blob), dir("x", sub)}); err == nil {
		t.Error("WriteTree accepted a file and a folder with one name")
	}
}

func testCommits(t *testing.T, r *Repo) {
	tree := mustTree(t, r, file("README", mustBlob(t, r, "hi")))
	first := mustCommit(t, r, tree, "first\n")
	second := mustCommit(t, r, ZeroHash, "second\n\nbody\n", first)
	c, err := r.Objects().Commit(second)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]any{"tree": c.TreeHash, "parents": c.ParentHashes, "message": c.Message,
		"author": c.Author.Name + " " + c.Author.Email, "when": c.Author.When.Unix(), "committer": c.Committer.Email}
	want := map[string]any{"tree": emptyTree, "parents": []Hash{first}, "message": "second\n\nbody\n",
		"author": "Ada Lovelace ada@example.com", "when": testSig.When.Unix(), "committer": "ada@example.com"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("commit round trip (-want +got):\n%s", diff)
	}
	bad := []CommitSpec{
		{Tree: plumbing.NewHash("1111111111111111111111111111111111111111"), Author: testSig, Committer: testSig},
		{Tree: tree, Parents: []Hash{plumbing.NewHash("2222222222222222222222222222222222222222")}, Author: testSig, Committer: testSig},
		{Tree: tree, Author: object.Signature{Name: "Eve <evil>", Email: "e@x"}, Committer: testSig},
		{Tree: tree, Author: testSig, Committer: object.Signature{Name: "Eve", Email: "e@x\nparent 00"}},
	}
	for i, spec := range bad {
		if h, err := r.Writes().WriteCommit(spec); err == nil {
			t.Errorf("bad commit %d was written as %s", i, h)
		}
	}
}

func testEntryAt(t *testing.T, r *Repo) {
	blob := mustBlob(t, r, "skill")
	skill := mustTree(t, r, file("SKILL.md", blob))
	skills := mustTree(t, r, dir("pdf", skill))
	root := mustTree(t, r, dir("skills", skills), file("README", blob))
	tests := []struct {
		path  string
		want  TreeEntry
		found bool
	}{
		{"", TreeEntry{Mode: filemode.Dir, Hash: root}, true},
		{"skills", dir("skills", skills), true},
		{"skills/pdf/SKILL.md", file("SKILL.md", blob), true},
		{"skills/none", TreeEntry{}, false},
		{"README/x", TreeEntry{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			got, found, err := r.Objects().EntryAt(root, tt.path)
			if err != nil || found != tt.found {
				t.Fatalf("EntryAt = %v, %v, %v; want found %v", got, found, err, tt.found)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("EntryAt (-want +got):\n%s", diff)
			}
		})
	}
	if _, found, err := r.Objects().EntryAt(ZeroHash, "skills"); err != nil || found {
		t.Errorf("EntryAt on the empty tree = %v, %v", found, err)
	}
	if _, _, err := r.Objects().EntryAt(root, "../x"); err == nil {
		t.Error("EntryAt accepted ../x")
	}
}

func testWalkFirstParent(t *testing.T, r *Repo) {
	tree := mustTree(t, r)
	c1 := mustCommit(t, r, tree, "1")
	c2 := mustCommit(t, r, tree, "2", c1)
	side := mustCommit(t, r, tree, "side", c1)
	c3 := mustCommit(t, r, tree, "3", c2, side)
	c4 := mustCommit(t, r, tree, "4", c3)
	var all []string
	if err := r.History().WalkFirstParent(c4, func(h Hash, c *object.Commit) error {
		all = append(all, c.Message)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"4", "3", "2", "1"}, all); diff != "" {
		t.Errorf("walk (-want +got):\n%s", diff)
	}
	var some []Hash
	err := r.History().WalkFirstParent(c4, func(h Hash, c *object.Commit) error {
		some = append(some, h)
		if h == c3 {
			return ErrStop
		}
		return nil
	})
	if err != nil || !cmp.Equal([]Hash{c4, c3}, some) {
		t.Errorf("walk with ErrStop = %v, %v; want [c4 c3], nil", some, err)
	}
	boom := errors.New("boom")
	if err := r.History().WalkFirstParent(c4, func(Hash, *object.Commit) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("walk error = %v, want boom", err)
	}
}
