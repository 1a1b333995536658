package gitstore

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/storage"
)

// requireGit fails the test when the git command line is older than
// major.minor.
func requireGit(t testing.TB, major, minor int) {
	t.Helper()
	out := gitRun(t, "", "version")
	f := strings.Fields(out)
	if len(f) < 3 {
		t.Fatalf("cannot parse %q", out)
	}
	parts := strings.SplitN(f[2], ".", 3)
	maj, err1 := strconv.Atoi(parts[0])
	mnr, err2 := strconv.Atoi(parts[min(1, len(parts)-1)])
	if err1 != nil || err2 != nil || len(parts) < 2 {
		t.Fatalf("cannot parse %q", out)
	}
	if maj < major || maj == major && mnr < minor {
		t.Fatalf("this test needs git %d.%d or later (for `git merge-tree --write-tree`); found %s", major, minor, f[2])
	}
}

// TestInteropMergeTreesMatchGit merges every case both ways, with
// MergeTrees and with `git merge-tree --write-tree`: a clean merge must
// give git's tree, and a merge git finds conflicting must conflict here
// too. (MergeTrees is stricter than git: it never merges two changes to
// one file.)
func TestInteropMergeTreesMatchGit(t *testing.T) {
	requireGit(t, 2, 38)
	r := diskRepo(true)(t)
	for i, tc := range mergeCases {
		t.Run(tc.name, func(t *testing.T) {
			base := mustCommit(t, r, buildTree(t, r, tc.base), fmt.Sprintf("base %d", i))
			ours := mustCommit(t, r, buildTree(t, r, tc.ours), "ours", base)
			theirs := mustCommit(t, r, buildTree(t, r, tc.theirs), "theirs", base)
			commits := map[Hash]Hash{}
			for _, c := range []Hash{base, ours, theirs} {
				obj, err := r.Objects().Commit(c)
				if err != nil {
					t.Fatal(err)
				}
				commits[c] = obj.TreeHash
			}
			got, conflicts, err := r.Writes().MergeTrees(commits[base], commits[ours], commits[theirs])
			if err != nil {
				t.Fatal(err)
			}
			out, gitErr := gitErr(r.GitDir(), "", "merge-tree", "--write-tree", ours.String(), theirs.String())
			gitTree := strings.TrimSpace(strings.SplitN(out, "\n", 2)[0])
			switch {
			case gitErr != nil && conflicts == nil:
				t.Errorf("git merge-tree reports a conflict (%v) that MergeTrees missed:\n%s", gitErr, out)
			case gitErr == nil && conflicts == nil && got.String() != gitTree:
				t.Errorf("MergeTrees = %s, git merge-tree = %s\nours:\n%sgit:\n%s",
					got, gitTree, listTree(t, r, got), gitRun(t, r.GitDir(), "ls-tree", "-r", gitTree))
			}
		})
	}
	gitRun(t, r.GitDir(), "fsck", "--strict", "--no-dangling")
}

// countingStorer counts the trees read from and written to the storage.
type countingStorer struct {
	storage.Storer
	treeReads, treeWrites int
}

func (s *countingStorer) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	if t == plumbing.TreeObject {
		s.treeReads++
	}
	return s.Storer.EncodedObject(t, h)
}

func (s *countingStorer) SetEncodedObject(o plumbing.EncodedObject) (plumbing.Hash, error) {
	if o.Type() == plumbing.TreeObject {
		s.treeWrites++
	}
	return s.Storer.SetEncodedObject(o)
}

// TestMergeTreesReadsOnlyChangedPaths merges two changes in a tree of
// 1,000 skill folders: only the folders above both changes may be read
// (three versions each) and written (one each).
func TestMergeTreesReadsOnlyChangedPaths(t *testing.T) {
	tests := []struct {
		name          string
		ours, theirs  string
		shared        int // folders above both changes, the root included
		cleanWrittenN int
	}{
		{"siblings", "skills/s-0001/SKILL.md", "skills/s-0999/SKILL.md", 2, 2},
		{"deep", "skills/cat/deep/a/SKILL.md", "skills/cat/deep/b/SKILL.md", 4, 4},
		{"apart", "skills/s-0500/SKILL.md", ".skillgit.yaml", 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := OpenMemory()
			base := thousandSkills(t, r)
			ours := putFile(t, r, base, tt.ours, "ours")
			theirs := putFile(t, r, base, tt.theirs, "theirs")
			counter := &countingStorer{Storer: r.storer}
			r.storer = counter
			r.trees, r.rawTrees = newTreeCache(treeCacheEntries), rawTreeCache{}
			got, conflicts, err := r.Writes().MergeTrees(base, ours, theirs)
			if err != nil || conflicts != nil {
				t.Fatalf("MergeTrees = %v, %v", conflicts, err)
			}
			if counter.treeReads != 3*tt.shared || counter.treeWrites != tt.cleanWrittenN {
				t.Errorf("read %d trees and wrote %d; want %d and %d",
					counter.treeReads, counter.treeWrites, 3*tt.shared, tt.cleanWrittenN)
			}
			want := putFile(t, r, ours, tt.theirs, "theirs")
			if got != want {
				t.Errorf("merged tree = %s, want %s", got, want)
			}
		})
	}
}

// thousandSkills writes skills/s-NNNN/SKILL.md for 1,000 skills, one
// nested skill and a config file.
func thousandSkills(t testing.TB, r *Repo) Hash {
	t.Helper()
	entries := make([]TreeEntry, 0, 1001)
	for i := range 1000 {
		blob := mustBlob(t, r, fmt.Sprintf("skill %d", i))
		entries = append(entries, dir(fmt.Sprintf("s-%04d", i), mustTree(t, r, file("SKILL.md", blob))))
	}
	root := mustTree(t, r, dir("skills", mustTree(t, r, entries...)), file(".skillgit.yaml", mustBlob(t, r, "mode: manual\n")))
	return putFile(t, r, root, "skills/cat/deep/a/SKILL.md", "nested")
}

func putFile(t testing.TB, r *Repo, root Hash, p, content string) Hash {
	t.Helper()
	h, err := r.Writes().ReplacePath(root, p, &TreeEntry{Mode: filemode.Regular, Hash: mustBlob(t, r, content)})
	if err != nil {
		t.Fatal(err)
	}
	return h
}
