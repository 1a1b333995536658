package commitgraph

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Repositories are built once per test binary and shared read-only.
var (
	fixMu   sync.Mutex
	fixRoot string
	fixDirs = map[string]string{}
)

func cleanupFixtures() {
	if fixRoot != "" {
		os.RemoveAll(fixRoot)
	}
}

// fixture returns the work tree of the repository named kind, building it
// on first use:
//
//	base      the history, no graph
//	plain     base + git commit-graph write --reachable
//	paths     base + --changed-paths
//	partial   base + --changed-paths --max-new-filters=20
//	split     three stages, each written with --split=no-merge --changed-paths
//	v2        base + -c commitGraph.changedPathsVersion=2 --changed-paths
//	small     a history of about 40 commits with --changed-paths (fuzz seed)
//	bench     a main line of benchCommits commits with --changed-paths
func fixture(t testing.TB, kind string) string {
	t.Helper()
	fixMu.Lock()
	defer fixMu.Unlock()
	if dir, ok := fixDirs[kind]; ok {
		return dir
	}
	if fixRoot == "" {
		root, err := os.MkdirTemp("", "commitgraph-fixtures-")
		if err != nil {
			t.Fatal(err)
		}
		fixRoot = root
	}
	dir := filepath.Join(fixRoot, kind)
	switch kind {
	case "base":
		git(t, "", "init", "-q", dir)
		h := newHistory(1, "", 1700000000)
		h.build(300, true)
		importHistory(t, dir, h)
	case "split":
		buildSplit(t, dir)
	case "bench":
		git(t, "", "init", "-q", dir)
		h := newHistory(4, "", 1700000000)
		h.main = h.line(0, benchCommits)
		h.refs["main"] = h.main
		importHistory(t, dir, h)
		git(t, dir, "commit-graph", "write", "--reachable", "--changed-paths")
	case "small":
		git(t, "", "init", "-q", dir)
		h := newHistory(3, "", 1500000000)
		h.build(40, true)
		importHistory(t, dir, h)
		git(t, dir, "commit-graph", "write", "--reachable", "--changed-paths")
	default:
		copyRepo(t, fixDirsLocked(t, "base"), dir)
		var args []string
		if kind == "v2" {
			args = []string{"-c", "commitGraph.changedPathsVersion=2"}
		}
		args = append(args, "commit-graph", "write", "--reachable")
		git(t, dir, append(args, graphFlags(t, kind)...)...)
	}
	fixDirs[kind] = dir
	return dir
}

// fixDirsLocked builds a fixture while fixMu is held.
func fixDirsLocked(t testing.TB, kind string) string {
	fixMu.Unlock()
	defer fixMu.Lock()
	return fixture(t, kind)
}

// graphFlags are the commit-graph write flags of kind.
func graphFlags(t testing.TB, kind string) []string {
	switch kind {
	case "plain":
		return nil
	case "paths", "v2":
		return []string{"--changed-paths"}
	case "partial":
		return []string{"--changed-paths", "--max-new-filters=20"}
	}
	t.Fatalf("unknown fixture %q", kind)
	return nil
}

// buildSplit grows a history in three stages and writes one graph layer
// after each.
func buildSplit(t testing.TB, dir string) {
	git(t, "", "init", "-q", dir)
	h := newHistory(2, "", 1600000000)
	for stage, n := range []int{120, 100, 50} {
		h.prefix = []string{"s1-", "s2-", "s3-"}[stage]
		h.build(n, stage == 1)
		importHistory(t, dir, h)
		git(t, dir, "commit-graph", "write", "--reachable", "--split=no-merge", "--changed-paths")
	}
}

// copyRepo copies the repository at src to dst.
func copyRepo(t testing.TB, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}

// openFixture opens the graph of fixture kind and closes it when the test
// ends.
func openFixture(t testing.TB, kind string) *Graph {
	t.Helper()
	g, err := Open(filepath.Join(fixture(t, kind), ".git", "objects"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

// gitCommit is one line of git log: a commit, its parents, tree and time.
type gitCommit struct {
	id, tree string
	parents  []string
	time     int64
}

// gitLog lists every commit reachable from the refs of the repository at
// dir, as git sees them.
func gitLog(t testing.TB, dir string) map[string]gitCommit {
	t.Helper()
	out := git(t, dir, "log", "--all", "--format=%H|%P|%T|%ct")
	commits := map[string]gitCommit{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 4 {
			t.Fatalf("git log line %q", line)
		}
		c := gitCommit{id: f[0], tree: f[2], parents: strings.Fields(f[1])}
		c.time = mustInt(t, f[3])
		commits[c.id] = c
	}
	return commits
}

// mustInt parses a decimal number.
func mustInt(t testing.TB, s string) int64 {
	t.Helper()
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// mustID parses a hexadecimal commit id.
func mustID(t testing.TB, s string) [20]byte {
	t.Helper()
	var id [20]byte
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 20 {
		t.Fatalf("bad id %q", s)
	}
	copy(id[:], b)
	return id
}

// hexOf spells an id in hexadecimal.
func hexOf(id [20]byte) string { return hex.EncodeToString(id[:]) }
