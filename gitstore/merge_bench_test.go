package gitstore

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing/object"
)

// BenchmarkMergeTrees merges two changes to a tree of benchSkills skills,
// one skill edited on each side; the result is a new tree every time.
func BenchmarkMergeTrees(b *testing.B) {
	for name, r := range benchRepos(b) {
		b.Run(name, func(b *testing.B) {
			base := skillsTree(b, r)
			ours := putFile(b, r, base, "skills/skill-00001/SKILL.md", "ours")
			i := 0
			for b.Loop() {
				i++
				b.StopTimer()
				theirs := putFile(b, r, base, "skills/skill-09000/SKILL.md", fmt.Sprintf("theirs %d", i))
				b.StartTimer()
				if _, conflicts, err := r.Writes().MergeTrees(base, ours, theirs); err != nil || conflicts != nil {
					b.Fatal(conflicts, err)
				}
			}
		})
	}
}

// BenchmarkMergeTreesGit is the git command line's merge of the same
// trees, `git merge-tree --write-tree`, for comparison.
func BenchmarkMergeTreesGit(b *testing.B) {
	r := benchRepos(b)["disk"]
	base := skillsTree(b, r)
	c := mustCommit(b, r, base, "base")
	ours := mustCommit(b, r, putFile(b, r, base, "skills/skill-00001/SKILL.md", "ours"), "ours", c)
	theirs := mustCommit(b, r, putFile(b, r, base, "skills/skill-09000/SKILL.md", "theirs"), "theirs", c)
	for b.Loop() {
		gitRun(b, r.GitDir(), "merge-tree", "--write-tree", ours.String(), theirs.String())
	}
}

// benchHistory writes a linear history of n commits on a bare repository
// on disk, one minute apart, and a branch of 10 commits that forks off
// behind commits before the tip. It returns the tip, the branch and the
// fork point.
func benchHistory(b *testing.B, n, behind int) (r *Repo, tip, branch, fork Hash) {
	b.Helper()
	r = benchRepos(b)["disk"]
	tree := mustTree(b, r)
	sig := testSig
	commit := func(msg string, parent Hash) Hash {
		sig.When = sig.When.Add(time.Minute)
		var parents []Hash
		if !parent.IsZero() {
			parents = []Hash{parent}
		}
		h, err := r.Writes().WriteCommit(CommitSpec{Tree: tree, Parents: parents, Author: sig, Committer: sig, Message: msg})
		if err != nil {
			b.Fatal(err)
		}
		return h
	}
	for i := range n {
		tip = commit(fmt.Sprintf("main %d", i), tip)
		if i == n-1-behind {
			fork = tip
		}
	}
	branch = fork
	for i := range 10 {
		branch = commit(fmt.Sprintf("branch %d", i), branch)
	}
	return r, tip, branch, fork
}

// BenchmarkMergeBase finds the fork point of a branch 500 commits behind
// the tip of a 5,000-commit history: with loose objects, with `git
// merge-base` (which starts a process each time), with packed objects
// read warm and through a freshly opened Repo, and with go-git's
// Commit.MergeBase.
func BenchmarkMergeBase(b *testing.B) {
	r, tip, branch, fork := benchHistory(b, 5000, 500)
	check := func(b *testing.B, got Hash, err error) {
		if err != nil || got != fork {
			b.Fatalf("merge base = %s, %v; want %s", got, err, fork)
		}
	}
	run := func(name string) {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				got, err := r.History().MergeBase(tip, branch)
				check(b, got, err)
			}
		})
	}
	run("loose")
	b.Run("git", func(b *testing.B) {
		for b.Loop() {
			out, err := exec.Command("git", "-C", r.GitDir(), "merge-base", tip.String(), branch.String()).Output()
			got, _ := parseHex(strings.TrimSpace(string(out)))
			check(b, got, err)
		}
	})
	if _, err := r.Packs().PackLoose(); err != nil {
		b.Fatal(err)
	}
	run("packed")
	b.Run("packed-fresh-open", func(b *testing.B) {
		for b.Loop() {
			fresh, err := Open(r.GitDir())
			if err != nil {
				b.Fatal(err)
			}
			got, err := fresh.History().MergeBase(tip, branch)
			check(b, got, err)
			fresh.Close()
		}
	})
	b.Run("go-git-packed", func(b *testing.B) {
		for b.Loop() {
			bases, err := goGitMergeBase(r, tip, branch)
			check(b, bases, err)
		}
	})
}

func goGitMergeBase(r *Repo, a, b Hash) (Hash, error) {
	ca, err := object.GetCommit(r.storer, a)
	if err != nil {
		return ZeroHash, err
	}
	cb, err := object.GetCommit(r.storer, b)
	if err != nil {
		return ZeroHash, err
	}
	bases, err := ca.MergeBase(cb)
	if err != nil || len(bases) == 0 {
		return ZeroHash, err
	}
	return bases[0].Hash, nil
}

// BenchmarkIsAncestor asks whether the fork point is an ancestor of the
// tip, 500 commits later.
func BenchmarkIsAncestor(b *testing.B) {
	r, tip, _, fork := benchHistory(b, 5000, 500)
	for b.Loop() {
		if ok, err := r.History().IsAncestor(fork, tip); err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
}

// BenchmarkPackLoose packs a history of 100 commits on a tree of 1,000
// skills, each commit rewriting one skill, and reports the pack's size
// next to the loose objects' size.
func BenchmarkPackLoose(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		r := benchRepos(b)["disk"]
		skillHistory(b, r, 1000, 100)
		loose, _ := objectBytes(b, r.Objects().objectsDir())
		b.StartTimer()
		if _, err := r.Packs().PackLoose(); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		_, packed := objectBytes(b, r.Objects().objectsDir())
		b.ReportMetric(float64(loose), "loose-bytes")
		b.ReportMetric(float64(packed), "pack-bytes")
		b.StartTimer()
	}
}
