package gitstore

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// TestReplacePathOnLargeTreeMatchesParsed applies the same random edits to a large tree in
// a repository that has it parsed and in one that patches its bytes, and the two must write
// the same trees, fail alike, and agree with git.
func TestReplacePathOnLargeTreeMatchesParsed(t *testing.T) {
	parsed := diskRepo(true)(t)
	obj, writes := parsed.Objects(), parsed.Writes()
	blob := mustBlob(t, parsed, "---\nname: x\n---\n")
	other := mustBlob(t, parsed, "changed\n")
	sub, err := writes.WriteTree([]TreeEntry{{Name: "SKILL.md", Mode: filemode.Regular, Hash: blob}})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	entries := randomTree(rng, 3000)
	for i := range entries {
		entries[i].Hash = blob
		if entries[i].isDir() {
			entries[i].Hash = sub
		}
	}
	root, err := writes.WriteTree(entries)
	if err != nil {
		t.Fatal(err)
	}
	if raw, _ := obj.ReadRawTree(root); raw.Size() < rawTreeMinSize {
		t.Fatalf("the tree is %d bytes, too small to be patched as bytes", raw.Size())
	}
	bytesRepo, err := Open(parsed.GitDir())
	if err != nil {
		t.Fatal(err)
	}
	defer bytesRepo.Close()
	names := []string{entries[0].Name, entries[len(entries)-1].Name, "a", "a-b", "zzz-new", "0-new", "SKILL.md"}
	kinds := []TreeEntry{{Mode: filemode.Regular, Hash: other}, {Mode: filemode.Dir, Hash: sub},
		{Mode: filemode.Executable, Hash: blob}, {Mode: filemode.Symlink, Hash: blob}}
	a, b := root, root
	for round := range 300 {
		name := entries[rng.IntN(len(entries))].Name
		if round%3 == 0 {
			name = names[rng.IntN(len(names))]
		}
		p := name
		if rng.IntN(4) == 0 {
			p = name + "/SKILL.md"
		}
		var e *TreeEntry
		if rng.IntN(5) > 0 {
			k := kinds[rng.IntN(len(kinds))]
			e = &k
		}
		if _, ok := bytesRepo.Objects().trees.get(b); ok {
			t.Fatalf("round %d: the tree is parsed in the repository that should patch bytes", round)
		}
		na, errA := writes.ReplacePath(a, p, e)
		nb, errB := bytesRepo.Writes().ReplacePath(b, p, e)
		if (errA == nil) != (errB == nil) || na != nb {
			t.Fatalf("round %d: ReplacePath(%q, %v): parsed %s, %v; bytes %s, %v", round, p, e, na, errA, nb, errB)
		}
		if errA == nil {
			a, b = na, nb
		}
	}
	if a == root {
		t.Fatal("no edit changed the tree")
	}
	listing := gitRun(t, parsed.GitDir(), "ls-tree", b.String())
	if got := gitIn(t, parsed.GitDir(), listing, "mktree"); got != b.String()+"\n" {
		t.Errorf("git mktree of the patched tree's listing = %s, want %s", got, b)
	}
	for _, name := range []string{entries[5].Name, "missing-" + fmt.Sprint(rng.IntN(9))} {
		want, okA, errA := obj.EntryAt(b, name)
		got, okB, errB := bytesRepo.Objects().EntryAt(b, name)
		if want != got || okA != okB || (errA == nil) != (errB == nil) {
			t.Errorf("EntryAt(%q): parsed %v %v %v, bytes %v %v %v", name, want, okA, errA, got, okB, errB)
		}
	}
}

// A large tree whose entries are out of order is refused when patched, as when parsed.
func TestReplacePathRefusesDisorderedLargeTree(t *testing.T) {
	r := diskRepo(true)(t)
	blob := mustBlob(t, r, "x\n")
	// Written as bytes: WriteTree would sort the entries.
	entries := make([]TreeEntry, 3000)
	for i := range entries {
		entries[i] = TreeEntry{Name: fmt.Sprintf("skill-%05d", 3000-i), Mode: filemode.Regular, Hash: blob}
	}
	h, err := r.Writes().writeObject(plumbing.TreeObject, encodeTree(entries))
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := Open(r.GitDir())
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	_, err = fresh.Writes().ReplacePath(h, "skill-00001", &TreeEntry{Mode: filemode.Regular, Hash: blob})
	if err == nil {
		t.Fatal("patching a disordered tree succeeded")
	}
}

// TestReplacePathFindsTheKeptTwin checks that an edit of a large tree whose result is a tree
// already read returns that tree's id, and that a kept tree missing from the store is not
// taken for the result.
func TestReplacePathFindsTheKeptTwin(t *testing.T) {
	w := diskRepo(false)(t)
	blob, other := mustBlob(t, w, "a\n"), mustBlob(t, w, "b\n")
	entries := make([]TreeEntry, 400)
	for i := range entries {
		entries[i] = TreeEntry{Name: fmt.Sprintf("skill-%03d", i), Mode: filemode.Regular, Hash: blob}
	}
	base, err := w.Writes().WriteTree(entries)
	if err != nil {
		t.Fatal(err)
	}
	// A repository opened afresh reads the tree as bytes, as a command does.
	r, err := Open(w.GitDir())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	obj, writes := r.Objects(), r.Writes()
	entries[7].Hash = other
	twinBytes := encodeTree(entries)
	twin := strings.TrimSpace(gitIn(t, r.GitDir(), string(twinBytes), "hash-object", "-t", "tree", "-w", "--stdin"))
	if _, err := obj.ReadRawTree(plumbing.NewHash(twin)); err != nil {
		t.Fatal(err)
	}
	// A tree kept under an id the store lacks, with the bytes of the edit below.
	missing := plumbing.NewHash("1234567890123456789012345678901234567890")
	edited := append([]TreeEntry(nil), entries...)
	edited[9].Hash = other
	obj.rawTrees.add(missing, encodeTree(edited))

	got, err := writes.ReplacePath(base, "skill-007", &TreeEntry{Mode: filemode.Regular, Hash: other})
	if err != nil || got.String() != twin {
		t.Fatalf("ReplacePath = %s, %v; want the kept twin %s", got, err, twin)
	}
	if h, ok := obj.rawTrees.twin([]string{string(twinBytes)}); !ok || h.String() != twin {
		t.Fatalf("twin of the edited bytes = %s, %v", h, ok)
	}
	got, err = writes.ReplacePath(got, "skill-009", &TreeEntry{Mode: filemode.Regular, Hash: other})
	if err != nil || got == missing || !obj.Has(got) {
		t.Fatalf("ReplacePath = %s, %v; want a stored tree, not the kept id the store lacks", got, err)
	}
	if want := plumbing.ComputeHash(plumbing.TreeObject, encodeTree(edited)); got != want {
		t.Errorf("ReplacePath = %s; want %s", got, want)
	}
}
