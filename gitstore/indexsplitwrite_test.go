package gitstore

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// manySkillsRepo is a checkout made with git of n skills, skills/sNNN/SKILL.md, and a README,
// with core.splitIndex set to setting ("" leaves it unset) before git writes the index, and
// the index split by git when split is true.
func manySkillsRepo(t *testing.T, n int, setting string, split bool) string {
	t.Helper()
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q", "-b", "main")
	if setting != "" {
		gitRun(t, dir, "config", "core.splitIndex", setting)
	}
	files := map[string]string{"README.md": "skills\n"}
	for i := range n {
		files[fmt.Sprintf("skills/s%03d/SKILL.md", i)] = fmt.Sprintf("skill %d\n", i)
	}
	writeFiles(t, dir, files)
	// Files older than the index are not racily clean, which git would store again.
	old := time.Now().Add(-time.Hour)
	for p := range files {
		if err := os.Chtimes(filepath.Join(dir, p), old, old); err != nil {
			t.Fatal(err)
		}
	}
	gitRun(t, dir, "add", ".")
	gitRun(t, dir, "commit", "-q", "-m", "first")
	if split {
		gitRun(t, dir, "update-index", "--split-index")
	}
	return dir
}

// sharedOf returns the id of the shared index that the checkout's index names, zero for an
// index that is not split.
func sharedOf(t *testing.T, dir string) Hash {
	t.Helper()
	var id Hash
	if err := eachIndexExtension(indexBytes(t, dir), func(sig string, data []byte) {
		if sig == linkSig {
			copy(id[:], data)
		}
	}); err != nil {
		t.Fatal(err)
	}
	return id
}

// sharedBytes returns the content of the shared index id of the checkout.
func sharedBytes(t *testing.T, dir string, id Hash) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ".git", "sharedindex."+hex.EncodeToString(id[:])))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// publishSkills patches the SKILL.md of the skills named by number, adds skill "new<round>"
// and removes the skill after the last patched one, as a publish does through the working
// tree, commits the result and checks that git agrees with the index. It returns the shared
// index the index names then.
func publishSkills(t *testing.T, dir string, round int, skills ...int) Hash {
	t.Helper()
	f := worktreeFixtureAt(t, dir)
	r := f.r
	changes := map[string]*TreeEntry{}
	var prefixes []string
	for _, i := range skills {
		p := fmt.Sprintf("skills/s%03d", i)
		changes[p+"/SKILL.md"] = &TreeEntry{Mode: filemode.Regular, Hash: mustBlob(t, r, fmt.Sprintf("skill %d, round %d\n", i, round))}
		prefixes = append(prefixes, p)
	}
	gone := fmt.Sprintf("skills/s%03d", slices.Max(skills)+1)
	added := fmt.Sprintf("skills/new%d", round)
	changes[gone], changes[added+"/SKILL.md"] = nil, &TreeEntry{Mode: filemode.Regular, Hash: mustBlob(t, r, "new\n")}
	f.new = f.edit(t, f.old, changes)
	if err := r.UpdateWorktree(f.old, f.new, append(prefixes, gone, added)); err != nil {
		t.Fatal(err)
	}
	f.commitNew(t)
	shared := sharedOf(t, dir)
	checkSplitMatchesHead(t, dir, f.new)
	if got := sharedOf(t, dir); got != shared {
		t.Fatalf("git's reading changed the shared index from %s to %s", shared, got)
	}
	return shared
}

// checkSplitMatchesHead is checkIndexMatchesHead without `git update-index --refresh`,
// which joins a split index whatever core.splitIndex says; `git ls-files --stage` lists
// the tree's files instead.
func checkSplitMatchesHead(t *testing.T, dir string, tree Hash) {
	t.Helper()
	if st := gitRun(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("git status --porcelain:\n%s", st)
	}
	gitRun(t, dir, "diff", "--cached", "--quiet")
	if got := gitRun(t, dir, "write-tree"); got != tree.String()+"\n" {
		t.Errorf("git write-tree = %s; want %s", got, tree)
	}
	var want strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(gitRun(t, dir, "ls-tree", "-r", tree.String())), "\n") {
		mode, rest, _ := strings.Cut(line, " ")
		_, idPath, _ := strings.Cut(rest, " ")
		id, p, _ := strings.Cut(idPath, "\t")
		fmt.Fprintf(&want, "%s %s 0\t%s\n", mode, id, p)
	}
	if got := gitRun(t, dir, "ls-files", "--stage"); got != want.String() {
		t.Errorf("git ls-files --stage:\n%s\nwant:\n%s", got, want.String())
	}
	gitRun(t, dir, "fsck", "--strict", "--no-dangling")
}

// TestSplitIndexWritesOnlyTheSplitFile checks that updates of a split index write the split
// file and leave the shared index as it was, byte for byte, while git reads the result as
// the new commit's index.
func TestSplitIndexWritesOnlyTheSplitFile(t *testing.T) {
	dir := manySkillsRepo(t, 60, "true", true)
	shared := sharedOf(t, dir)
	if shared.IsZero() {
		t.Fatal("git did not split the index")
	}
	// git's split file replaces every entry; the first update writes a new shared index.
	shared = publishSkills(t, dir, 1, 3)
	before := sharedBytes(t, dir, shared)
	for round, skills := range [][]int{{5}, {3, 10}} {
		if got := publishSkills(t, dir, round+2, skills...); got != shared {
			t.Fatalf("round %d: the index names shared index %s, want %s kept", round+2, got, shared)
		}
	}
	if !bytes.Equal(sharedBytes(t, dir, shared), before) {
		t.Error("the shared index changed")
	}
	if size := len(indexBytes(t, dir)); size > len(before)/2 {
		t.Errorf("the split file is %d bytes, the shared index %d: the entries were written again", size, len(before))
	}
}

// TestSplitIndexNewSharedAfterManyChanges checks that once the split file holds more than
// splitIndex.maxPercentChange of the shared index, a new shared index is written.
func TestSplitIndexNewSharedAfterManyChanges(t *testing.T) {
	dir := manySkillsRepo(t, 30, "true", true)
	first := publishSkills(t, dir, 0, 1)
	var got Hash
	for round := 1; round < 4; round++ {
		got = publishSkills(t, dir, round, 2*round, 2*round+1)
	}
	if got.IsZero() || got == first {
		t.Errorf("shared index %s after 12 changes to 31 entries, want a new one (was %s)", got, first)
	}
}

// TestLargeIndexIsSplit checks that an index of splitIndexFrom entries or more, with
// core.splitIndex unset, is written split, and a smaller one is not.
func TestLargeIndexIsSplit(t *testing.T) {
	defer func(n int) { splitIndexFrom = n }(splitIndexFrom)
	splitIndexFrom = 40
	large, small := manySkillsRepo(t, 50, "", false), manySkillsRepo(t, 30, "", false)
	if publishSkills(t, large, 1, 7).IsZero() {
		t.Error("an index of 51 entries was not split")
	}
	if !publishSkills(t, small, 1, 7).IsZero() {
		t.Error("an index of 31 entries was split")
	}
	// git keeps the split index, as core.splitIndex is unset.
	writeFiles(t, large, map[string]string{"README.md": "changed\n"})
	gitRun(t, large, "commit", "-q", "-am", "by git")
	if sharedOf(t, large).IsZero() {
		t.Error("git joined the split index again")
	}
}

// TestSplitIndexFollowsSetting checks that core.splitIndex false joins a split index, and
// that with it unset a small split index stays split, as git does.
func TestSplitIndexFollowsSetting(t *testing.T) {
	off := manySkillsRepo(t, 20, "true", true)
	gitRun(t, off, "config", "core.splitIndex", "false")
	if !publishSkills(t, off, 1, 4).IsZero() {
		t.Error("core.splitIndex false: the index is still split")
	}
	unset := manySkillsRepo(t, 20, "true", true)
	gitRun(t, unset, "config", "--unset", "core.splitIndex")
	if publishSkills(t, unset, 1, 4).IsZero() {
		t.Error("core.splitIndex unset: a split index was joined")
	}
}

// TestEWAHRoundTrip writes random sets of positions as bitmaps and reads them back.
func TestEWAHRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for round := range 500 {
		limit := 1 + rng.IntN(2000)
		var set []int
		for p := range limit {
			if rng.IntN(1+round%7*8) == 0 {
				set = append(set, p)
			}
		}
		b := appendEWAH(nil, set, limit)
		got, rest, ok := readEWAH(b, limit)
		if !ok || len(rest) != 0 || fmt.Sprint(got) != fmt.Sprint(set) {
			t.Fatalf("round %d: wrote %v, read %v (ok %v, %d bytes left)", round, set, got, ok, len(rest))
		}
	}
}
