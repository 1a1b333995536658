package gitstore

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// commitLine makes n commits with the git command line and returns the last one.
func commitLine(t *testing.T, dir string, from, n int) Hash {
	t.Helper()
	for i := from; i < from+n; i++ {
		writeFiles(t, dir, map[string]string{fmt.Sprintf("skills/s%d/SKILL.md", i): "x\n"})
		gitRun(t, dir, "add", "-A")
		gitRun(t, dir, "commit", "-q", "-m", fmt.Sprint("c", i))
	}
	id, ok := parseHex(strings.TrimSpace(gitRun(t, dir, "rev-parse", "HEAD")))
	if !ok {
		t.Fatal("no HEAD")
	}
	return id
}

func extendGraph(t *testing.T, dir string, tip Hash, threshold int) (bool, *Repo) {
	t.Helper()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	wrote, err := r.History().MaybeExtendCommitGraph(tip, threshold)
	if err != nil {
		t.Fatal(err)
	}
	return wrote, r
}

// TestMaybeExtendCommitGraph: the graph is written once enough commits are outside it, git
// verifies what was written, and the repository reads the new graph at once.
func TestMaybeExtendCommitGraph(t *testing.T) {
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q", "-b", "main")
	tip := commitLine(t, dir, 0, 5)
	if wrote, _ := extendGraph(t, dir, tip, 6); wrote {
		t.Fatal("a graph was written with 5 commits outside it and a threshold of 6")
	}
	if _, err := os.Stat(filepath.Join(dir, ".git/objects/info/commit-graphs")); err == nil {
		t.Fatal("commit-graphs folder exists though nothing was to be written")
	}
	wrote, r := extendGraph(t, dir, tip, 5)
	if !wrote {
		t.Fatal("no graph written with 5 commits outside it and a threshold of 5")
	}
	if _, ok := r.History().graph().Lookup(tip); !ok {
		t.Fatal("the graph read after writing does not hold the tip")
	}
	gitRun(t, dir, "commit-graph", "verify")
	tip = commitLine(t, dir, 5, 2)
	if wrote, _ := extendGraph(t, dir, tip, 3); wrote {
		t.Fatal("a graph was written with 2 new commits and a threshold of 3")
	}
	tip = commitLine(t, dir, 7, 1)
	wrote, r = extendGraph(t, dir, tip, 3)
	if !wrote {
		t.Fatal("the graph was not extended with 3 new commits")
	}
	gitRun(t, dir, "commit-graph", "verify")
	if n, err := r.History().commitsOutsideGraph(tip, 100); err != nil || n != 0 {
		t.Fatalf("after extending, %d commits are outside the graph (%v)", n, err)
	}
	if v, ok := r.History().graph().HasChangedPaths(); !ok {
		t.Fatalf("the graph carries no changed-path filters (version %d)", v)
	}
}

// TestMaybeExtendCommitGraphIgnoresGitEnv: variables that point git elsewhere, as a hook's
// environment may, do not move the write to another repository.
func TestMaybeExtendCommitGraphIgnoresGitEnv(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	for _, d := range []string{dir, other} {
		gitRun(t, d, "init", "-q", "-b", "main")
	}
	tip := commitLine(t, dir, 0, 2)
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("GIT_OBJECT_DIRECTORY", filepath.Join(other, ".git", "objects"))
	if wrote, _ := extendGraph(t, dir, tip, 1); !wrote {
		t.Fatal("no graph written")
	}
	if _, err := os.Stat(filepath.Join(dir, ".git/objects/info/commit-graphs/commit-graph-chain")); err != nil {
		t.Fatalf("the graph is not in the repository: %v", err)
	}
	if _, err := os.Stat(filepath.Join(other, ".git/objects/info/commit-graphs")); err == nil {
		t.Fatal("the graph went to the repository GIT_DIR names")
	}
}

// TestMaybeExtendCommitGraphConfigOff: a repository whose config turns graphs off gets none.
func TestMaybeExtendCommitGraphConfigOff(t *testing.T) {
	for _, key := range []string{"core.commitGraph", "gc.writeCommitGraph"} {
		dir := t.TempDir()
		gitRun(t, dir, "init", "-q", "-b", "main")
		tip := commitLine(t, dir, 0, 2)
		gitRun(t, dir, "config", key, "false")
		if wrote, _ := extendGraph(t, dir, tip, 1); wrote {
			t.Errorf("%s=false: a graph was written", key)
		}
	}
}

// TestMaybeExtendCommitGraphLocked: while another process holds the graph's lock, as a
// concurrent publish does, nothing is written and no error is given; once it is gone the
// next call writes.
func TestMaybeExtendCommitGraphLocked(t *testing.T) {
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q", "-b", "main")
	tip := commitLine(t, dir, 0, 2)
	lock := filepath.Join(dir, ".git/objects/info/commit-graphs/commit-graph-chain.lock")
	writeFiles(t, dir, map[string]string{".git/objects/info/commit-graphs/commit-graph-chain.lock": ""})
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if wrote, err := r.History().MaybeExtendCommitGraph(tip, 1); wrote || err != nil {
		t.Fatalf("with the lock held: wrote %v, err %v; want neither", wrote, err)
	}
	if err := os.Remove(lock); err != nil {
		t.Fatal(err)
	}
	if wrote, err := r.History().MaybeExtendCommitGraph(tip, 1); !wrote || err != nil {
		t.Fatalf("after the lock is gone: wrote %v, err %v", wrote, err)
	}
}
