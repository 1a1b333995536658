package gitstore

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// TestTreeOffsetsMatchScan checks that lookups and edits by binary search find what a scan of
// the same tree finds, on random trees where files and folders share prefixes, for names
// present and absent, and for a new entry of either kind.
func TestTreeOffsetsMatchScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for round := range 60 {
		entries := randomTree(rng, 1+rng.IntN(400))
		if round%4 == 0 {
			// A file and a folder of the same name: git's order keeps both, the file first.
			entries = append(entries, TreeEntry{Name: "a", Mode: filemode.Regular}, TreeEntry{Name: "a", Mode: filemode.Dir})
			entries = slices.CompactFunc(entries, func(x, y TreeEntry) bool { return x == y })
			slices.SortFunc(entries, compareEntries)
			entries = slices.CompactFunc(entries, func(x, y TreeEntry) bool { return compareEntries(x, y) == 0 })
		}
		scan := rawOf(entries)
		fast := scan
		fast.offs = &treeOffsets{}
		if fast.offsets() == nil {
			t.Fatalf("round %d: no offsets for a tree in git order", round)
		}
		names := []string{"a", "a-b", "a.md", "ab", "b", "zzz", "0", "a0", "SKILL.md"}
		for _, e := range randomTree(rng, 20) {
			names = append(names, e.Name)
		}
		for _, e := range entries {
			names = append(names, e.Name)
		}
		for _, name := range names {
			want, wantOK, err := scan.Entry(name)
			mustNot(t, err)
			got, ok, err := fast.Entry(name)
			mustNot(t, err)
			if got != want || ok != wantOK {
				t.Fatalf("round %d: Entry(%q) = %v, %v by search; %v, %v by scan", round, name, got, ok, want, wantOK)
			}
			for _, child := range []*TreeEntry{nil, {Name: name, Mode: filemode.Regular}, {Name: name, Mode: filemode.Dir}} {
				want, err := scan.locate(name, child)
				mustNot(t, err)
				got, err := fast.locate(name, child)
				mustNot(t, err)
				if got != want {
					t.Fatalf("round %d: locate(%q, %v) = %+v by search; %+v by scan", round, name, child, got, want)
				}
			}
		}
	}
}

// TestTreeOffsetsRefuseDisorder checks that a tree out of git order gets no offsets, so that
// lookups scan it and edits refuse it as before.
func TestTreeOffsetsRefuseDisorder(t *testing.T) {
	entries := randomTree(rand.New(rand.NewPCG(7, 8)), 50)
	entries[10], entries[20] = entries[20], entries[10]
	raw := rawOf(entries)
	raw.offs = &treeOffsets{}
	if raw.offsets() != nil {
		t.Fatal("a tree out of order got offsets")
	}
	if _, ok, err := raw.Entry(entries[10].Name); err != nil || !ok {
		t.Errorf("Entry in a tree out of order = %v, %v; want the entry found by a scan", ok, err)
	}
	if _, err := raw.locate(entries[10].Name, nil); err == nil {
		t.Error("locate accepted a tree out of order")
	}
}

func mustNot(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestTreeOffsetsTakenOnSecondLookup checks that a tree looked up once is scanned, and that the
// offsets are taken by the second lookup, or by an edit, which scans every entry anyway.
func TestTreeOffsetsTakenOnSecondLookup(t *testing.T) {
	entries := randomTree(rand.New(rand.NewPCG(9, 10)), 100)
	looked := rawOf(entries)
	looked.offs = &treeOffsets{}
	for i, wantTaken := range []bool{false, true} {
		if _, ok, err := looked.Entry(entries[50].Name); err != nil || !ok {
			t.Fatalf("lookup %d: %v, %v", i+1, ok, err)
		}
		if taken := looked.offs.at != nil; taken != wantTaken {
			t.Errorf("after lookup %d the offsets are taken: %v, want %v", i+1, taken, wantTaken)
		}
	}
	edited := rawOf(entries)
	edited.offs = &treeOffsets{}
	if _, err := edited.locate(entries[50].Name, nil); err != nil {
		t.Fatal(err)
	}
	if edited.offs.at == nil {
		t.Error("an edit did not take the offsets")
	}
}
