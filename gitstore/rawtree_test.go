package gitstore

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/google/go-cmp/cmp"
)

// randomTree makes entries with names drawn so that folders and files share prefixes and
// names ("a", "a-b", "a.md", "a/" …), which is where git's order is subtle.
func randomTree(rng *rand.Rand, n int) []TreeEntry {
	stems := []string{"a", "a-b", "a.md", "ab", "b", "SKILL.md", "z", "a0", "x-y-z"}
	seen := map[string]bool{}
	var out []TreeEntry
	for len(out) < n {
		name := stems[rng.IntN(len(stems))] + fmt.Sprint(rng.IntN(n*3))
		if rng.IntN(4) == 0 {
			name = stems[rng.IntN(len(stems))]
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		e := TreeEntry{Name: name, Mode: filemode.Regular}
		if rng.IntN(2) == 0 {
			e.Mode = filemode.Dir
		}
		e.Hash[0], e.Hash[19] = byte(rng.IntN(256)), byte(rng.IntN(256))
		out = append(out, e)
	}
	slices.SortFunc(out, compareEntries)
	return out
}

// mutate changes a copy of entries: some removed, some changed in hash or mode, some added.
func mutate(rng *rand.Rand, entries []TreeEntry) []TreeEntry {
	out := []TreeEntry{}
	for _, e := range entries {
		switch rng.IntN(20) {
		case 0:
			continue
		case 1:
			e.Hash[5]++
		case 2:
			e.Mode = filemode.Executable
		}
		out = append(out, e)
	}
	for _, e := range randomTree(rng, rng.IntN(4)) {
		if _, ok := findEntry(out, e.Name); !ok {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, compareEntries)
	return out
}

// decodedDiff is the reference: both trees decoded and merged.
func decodedDiff(a, b []TreeEntry) []string {
	var out []string
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var ea, eb TreeEntry
		switch c := sideOrder(a, b, i, j); {
		case c < 0:
			ea, i = a[i], i+1
		case c > 0:
			eb, j = b[j], j+1
		default:
			ea, eb, i, j = a[i], b[j], i+1, j+1
		}
		if ea != eb {
			out = append(out, diffLine(ea, eb))
		}
	}
	return out
}

func sideOrder(a, b []TreeEntry, i, j int) int {
	switch {
	case i >= len(a):
		return 1
	case j >= len(b):
		return -1
	}
	return compareEntries(a[i], b[j])
}

func diffLine(a, b TreeEntry) string {
	return fmt.Sprintf("%s %o %s | %s %o %s", a.Name, a.Mode, a.Hash, b.Name, b.Mode, b.Hash)
}

func rawDiffLines(t *testing.T, a, b RawTree) []string {
	t.Helper()
	var out []string
	err := DiffRawTrees(a, b, func(ea, eb TreeEntry) error {
		out = append(out, diffLine(ea, eb))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func rawOf(entries []TreeEntry) RawTree {
	return RawTree{id: Hash{1}, data: string(encodeTree(entries))}
}

// keptOf is rawOf with the offsets of its entries, as the cache keeps a large tree.
func keptOf(entries []TreeEntry) RawTree {
	t := rawOf(entries)
	t.offs = &treeOffsets{}
	return t
}

// TestDiffRawTreesMatchesDecoded compares the raw diff with a merge of the decoded trees on
// random pairs, large and small, including trees that differ only at the start or the end:
// scanned, and with the offsets of the entries of either side or both (kept trees).
func TestDiffRawTreesMatchesDecoded(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 400 {
		a := randomTree(rng, []int{0, 1, 3, 40, 700}[round%5])
		b := mutate(rng, a)
		want := decodedDiff(a, b)
		for _, sides := range [][2]func([]TreeEntry) RawTree{{rawOf, rawOf}, {keptOf, rawOf}, {rawOf, keptOf}, {keptOf, keptOf}} {
			got := rawDiffLines(t, sides[0](a), sides[1](b))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("round %d: raw diff differs from the decoded one (-want +got):\n%s", round, diff)
			}
		}
		if back := rawDiffLines(t, rawOf(b), rawOf(a)); len(back) != len(want) {
			t.Fatalf("round %d: %d changes one way, %d the other", round, len(want), len(back))
		}
	}
}

// TestDiffRawTreesAgreesWithGit diffs two real commits of a repository made with the git
// command line and compares the names with `git diff-tree`.
func TestDiffRawTreesAgreesWithGit(t *testing.T) {
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q", "-b", "main")
	files := map[string]string{}
	for i := range 300 {
		files[fmt.Sprintf("skills/s%03d/SKILL.md", i)] = fmt.Sprintf("skill %d\n", i)
	}
	files["skills/s1"] = "a file beside the folder s1x\n"
	writeFiles(t, dir, files)
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "first")
	writeFiles(t, dir, map[string]string{"skills/s000/SKILL.md": "changed\n", "skills/s150/x.md": "new\n",
		"skills/s299/SKILL.md": "changed\n", "skills/s1": "changed\n", "skills/s300/SKILL.md": "added\n"})
	gitRun(t, dir, "rm", "-q", "-r", "skills/s077")
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "second")
	want := strings.Fields(gitRun(t, dir, "diff-tree", "--name-only", "HEAD~1:skills", "HEAD:skills"))
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	a, b := readRaw(t, r, dir, "HEAD~1:skills"), readRaw(t, r, dir, "HEAD:skills")
	var got []string
	if err := DiffRawTrees(a, b, func(ea, eb TreeEntry) error {
		got = append(got, max(ea.Name, eb.Name))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("names differ from git diff-tree (-git +raw):\n%s", diff)
	}
	for name, want := range map[string]bool{"s000": true, "SKILL.md": false, "s1": true} {
		if has, err := b.Has(name); err != nil || has != want {
			t.Errorf("Has(%q) = %v, %v; want %v", name, has, err, want)
		}
		e, ok, err := b.Entry(name)
		if err != nil || ok != want {
			t.Errorf("Entry(%q) = %v, %v; want found %v", name, ok, err, want)
			continue
		}
		if !want {
			continue
		}
		if id := strings.TrimSpace(gitRun(t, dir, "rev-parse", "HEAD:skills/"+name)); e.Name != name || e.Hash.String() != id {
			t.Errorf("Entry(%q) = %s %s; git has %s", name, e.Name, e.Hash, id)
		}
	}
}

func readRaw(t *testing.T, r *Repo, dir, rev string) RawTree {
	t.Helper()
	raw, err := r.Objects().ReadRawTree(plumbing.NewHash(strings.TrimSpace(gitRun(t, dir, "rev-parse", rev))))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestRawTreeCorrupt feeds damaged trees: an error naming the tree, never a panic.
func TestRawTreeCorrupt(t *testing.T) {
	good := string(encodeTree([]TreeEntry{{Name: "a", Mode: filemode.Dir}, {Name: "b", Mode: filemode.Regular}}))
	for _, bad := range []string{good[:len(good)-3], "100644 x", "abc", "1006444444 a\x00" + strings.Repeat("x", 20), good + "4"} {
		a, b := RawTree{id: Hash{2}, data: bad}, RawTree{id: Hash{3}, data: good}
		err := DiffRawTrees(a, b, func(TreeEntry, TreeEntry) error { return nil })
		if err == nil || !strings.Contains(err.Error(), "corrupt") {
			t.Errorf("diff of %q: err = %v; want a corrupt-tree error", bad, err)
		}
	}
}

// TestDiffRawTreesUnsortedHead: a tree written out of git's order or with a name twice (git
// fsck refuses both, but a push may carry one) must not hide a changed entry from the
// audit: every entry of the head that is not byte for byte an entry of the base is reported.
func TestDiffRawTreesUnsortedHead(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 200 {
		base := randomTree(rng, 30)
		head := mutate(rng, base)
		if len(head) > 0 {
			head = append(head, TreeEntry{Name: head[0].Name, Mode: filemode.Regular, Hash: Hash{9, byte(round)}})
		}
		rng.Shuffle(len(head), func(i, j int) { head[i], head[j] = head[j], head[i] })
		reported := map[TreeEntry]bool{}
		err := DiffRawTrees(rawOf(base), rawOf(head), func(_, eb TreeEntry) error {
			reported[eb] = true
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range head {
			if !slices.Contains(base, e) && !reported[e] {
				t.Fatalf("round %d: head entry %+v differs from the base and was not reported", round, e)
			}
		}
	}
}
