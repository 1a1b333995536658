package gitstore

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// A tree of 64 KB or more is written in zlib's stored blocks, and git reads it, checks it and
// packs it as any other; a smaller one stays compressed.
func TestLargeTreeIsStoredAndGitReadsIt(t *testing.T) {
	r := diskRepo(true)(t)
	blob, err := r.Writes().WriteBlob([]byte("---\nname: x\n---\n"))
	if err != nil {
		t.Fatal(err)
	}
	tree := func(n int) Hash {
		entries := make([]TreeEntry, n)
		for i := range entries {
			entries[i] = TreeEntry{Name: fmt.Sprintf("skill-%06d", i), Mode: filemode.Regular, Hash: blob}
		}
		h, err := r.Writes().WriteTree(entries)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	large, small := tree(40000), tree(1500) // 1.3 MB and 50 kB
	for _, c := range []struct {
		h      Hash
		stored bool
	}{{large, true}, {small, false}} {
		st, err := os.Stat(loosePath(r.Objects().objectsDir(), c.h))
		if err != nil {
			t.Fatal(err)
		}
		size := strings.TrimSpace(gitRun(t, r.GitDir(), "cat-file", "-s", c.h.String()))
		var want int64
		fmt.Sscan(size, &want)
		if stored := st.Size() > want; stored != c.stored {
			t.Errorf("tree of %d bytes: loose file of %d bytes, stored = %v, want %v", want, st.Size(), stored, c.stored)
		}
		listing := gitRun(t, r.GitDir(), "ls-tree", c.h.String())
		if got := strings.TrimSpace(gitIn(t, r.GitDir(), listing, "mktree")); got != c.h.String() {
			t.Errorf("git mktree of the listing = %s, want %s", got, c.h)
		}
		got, err := r.Objects().ReadRawTree(c.h)
		if err != nil || int64(got.Size()) != want {
			t.Errorf("reading tree %s back: %v, %d bytes", c.h, err, got.Size())
		}
	}
	commit, err := r.Writes().WriteCommit(CommitSpec{Tree: large, Message: "large\n", Author: testSig, Committer: testSig})
	if err != nil {
		t.Fatal(err)
	}
	gitRun(t, r.GitDir(), "update-ref", "refs/heads/main", commit.String())
	gitRun(t, r.GitDir(), "fsck", "--strict", "--no-dangling")
	gitRun(t, r.GitDir(), "gc", "--quiet")
	gitRun(t, r.GitDir(), "fsck", "--strict", "--no-dangling")
}
