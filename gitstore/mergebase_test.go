package gitstore

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// history lists commits in the order they are made: "name parent...".
// A commit's committer date is one minute after the previous commit's,
// unless dates gives it a number of seconds since the epoch.
type history struct {
	name    string
	commits []string
	dates   map[string]int64
}

var histories = []history{
	{name: "linear", commits: []string{"a", "b a", "c b", "d c", "e d"}},
	{name: "branch", commits: []string{"a", "b a", "c b", "d c", "t1 b", "t2 t1"}},
	{name: "criss-cross", commits: []string{"r", "a1 r", "b1 r", "a2 a1 b1", "b2 b1 a1", "a3 a2", "b3 b2"}},
	{name: "merged branch", commits: []string{"a", "b a", "t1 a", "m b t1", "t2 t1", "c m"}},
	{name: "disjoint roots", commits: []string{"a", "b a", "x", "y x"}},
	{name: "octopus", commits: []string{"a", "b a", "c a", "d a", "m b c d", "e d"}},
	{name: "clock skew", commits: []string{"r", "c2 r", "a1 c2", "b1 c2", "b2 b1 r", "a2 a1"},
		dates: map[string]int64{"r": 100, "c2": 200, "a1": 300, "b1": 1, "b2": 400, "a2": 500}},
	// A batch of publishes: each merges a candidate based on b into a line that grows by one
	// merge; the commits known to reach b let a later walk stop early.
	{name: "publish batch", commits: []string{"a", "b a", "t1 b", "t2 b", "t3 b", "m1 b t1", "m2 m1 t2", "m3 m2 t3", "x a", "m4 m3 x"}},
	{name: "equal dates", commits: []string{"a", "b a", "c a", "m b c", "d c"},
		dates: map[string]int64{"a": 7, "b": 7, "c": 7, "m": 7, "d": 7}},
}

// makeHistory creates h with the git command line in a new repository
// and returns the id of each commit.
func makeHistory(t *testing.T, h history) (string, map[string]Hash) {
	t.Helper()
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q", "-b", "main")
	tree := strings.TrimSpace(gitRun(t, dir, "hash-object", "-t", "tree", "-w", "--stdin"))
	ids := map[string]Hash{}
	for i, line := range h.commits {
		f := strings.Fields(line)
		args := []string{"commit-tree", tree, "-m", f[0]}
		for _, p := range f[1:] {
			args = append(args, "-p", ids[p].String())
		}
		date, ok := h.dates[f[0]]
		if !ok {
			date = 1_700_000_000 + int64(i)*60
		}
		id, ok := parseHex(strings.TrimSpace(gitDated(t, dir, date, args...)))
		if !ok {
			t.Fatalf("git commit-tree gave no id for %s", f[0])
		}
		ids[f[0]] = id
	}
	return dir, ids
}

// gitDated runs git with the author and committer dates set.
func gitDated(t *testing.T, dir string, date int64, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	stamp := fmt.Sprintf("@%d +0000", date)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE="+stamp, "GIT_COMMITTER_DATE="+stamp)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}

// TestMergeBaseMatchesGit compares MergeBase and IsAncestor with
// `git merge-base --all` and `git merge-base --is-ancestor` for every
// ordered pair of commits of each history.
func TestMergeBaseMatchesGit(t *testing.T) {
	for _, h := range histories {
		t.Run(h.name, func(t *testing.T) {
			dir, ids := makeHistory(t, h)
			r, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			for x, xid := range ids {
				for y, yid := range ids {
					checkMergeBase(t, r, dir, x+" "+y, xid, yid)
				}
			}
		})
	}
}

func checkMergeBase(t *testing.T, r *Repo, dir, pair string, x, y Hash) {
	t.Helper()
	got, err := r.History().MergeBase(x, y)
	if err != nil {
		t.Fatalf("%s: MergeBase: %v", pair, err)
	}
	out, _ := gitErr(dir, "", "merge-base", "--all", x.String(), y.String())
	all := strings.Fields(out)
	switch {
	case len(all) == 0 && !got.IsZero():
		t.Errorf("%s: MergeBase = %s, git finds none", pair, got)
	case len(all) > 0 && !slices.Contains(all, got.String()):
		t.Errorf("%s: MergeBase = %s, git merge-base --all = %v", pair, got, all)
	}
	anc, err := r.History().IsAncestor(x, y)
	if err != nil {
		t.Fatalf("%s: IsAncestor: %v", pair, err)
	}
	_, gitErr := gitErr(dir, "", "merge-base", "--is-ancestor", x.String(), y.String())
	if anc != (gitErr == nil) {
		t.Errorf("%s: IsAncestor = %v, git merge-base --is-ancestor says %v", pair, anc, gitErr == nil)
	}
}

// TestIsAncestorRemembersReach checks that IsAncestor gives git's answers when a repository
// asks, in the order a batch of publishes does, whether each candidate's base and tip reach
// the growing publish branch, and then every other pair again, with what it remembered.
func TestIsAncestorRemembersReach(t *testing.T) {
	var h history
	for _, c := range histories {
		if c.name == "publish batch" {
			h = c
		}
	}
	dir, ids := makeHistory(t, h)
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, m := range []string{"m1", "m2", "m3", "m4"} {
		for _, x := range []string{"b", "t1", "t2", "t3", "x"} {
			checkMergeBase(t, r, dir, x+" "+m, ids[x], ids[m])
		}
	}
	for x, xid := range ids {
		for y, yid := range ids {
			checkMergeBase(t, r, dir, x+" "+y, xid, yid)
		}
	}
	if in, ok := r.reach.answer(ids["b"], ids["m3"]); !in || !ok {
		t.Error("IsAncestor(b, m3) was true and is not remembered")
	}
	if in, ok := r.reach.answer(ids["m3"], ids["b"]); in || !ok {
		t.Error("IsAncestor(m3, b) was false and is not remembered")
	}
}

func TestMergeBaseNamedCases(t *testing.T) {
	r := OpenMemory()
	tree := mustTree(t, r)
	a := mustCommit(t, r, tree, "a")
	b := mustCommit(t, r, tree, "b", a)
	c := mustCommit(t, r, tree, "c", b)
	side := mustCommit(t, r, tree, "side", a)
	other := mustCommit(t, r, tree, "other root")
	tests := []struct {
		name string
		x, y Hash
		want Hash
		anc  bool
	}{
		{"same commit", c, c, c, true},
		{"ancestor", a, c, a, true},
		{"descendant", c, a, a, false},
		{"fork", c, side, a, false},
		{"disjoint", c, other, ZeroHash, false},
		{"zero first", ZeroHash, c, ZeroHash, false},
		{"zero second", c, ZeroHash, ZeroHash, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := r.History().MergeBase(tt.x, tt.y)
			if err != nil || got != tt.want {
				t.Errorf("MergeBase = %s, %v; want %s", got, err, tt.want)
			}
			anc, err := r.History().IsAncestor(tt.x, tt.y)
			if err != nil || anc != tt.anc {
				t.Errorf("IsAncestor = %v, %v; want %v", anc, err, tt.anc)
			}
		})
	}
}

func TestMergeBaseBadInput(t *testing.T) {
	r := OpenMemory()
	tree := mustTree(t, r)
	c := mustCommit(t, r, tree, "c")
	missing, _ := parseHex("1111111111111111111111111111111111111111")
	blob := mustBlob(t, r, "not a commit")
	for name, h := range map[string]Hash{"missing": missing, "blob": blob, "tree": tree} {
		if got, err := r.History().MergeBase(c, h); err == nil {
			t.Errorf("%s: MergeBase = %s, want an error", name, got)
		}
		if got, err := r.History().IsAncestor(h, c); err == nil {
			t.Errorf("%s: IsAncestor = %v, want an error", name, got)
		}
	}
}

// TestMergeBaseDropsRedundant checks the rule that picks one merge base:
// a candidate that is an ancestor of another is never chosen.
func TestMergeBaseDropsRedundant(t *testing.T) {
	r := OpenMemory()
	tree := mustTree(t, r)
	old := mustCommit(t, r, tree, "old")
	newer := mustCommit(t, r, tree, "newer", old)
	other := mustCommit(t, r, tree, "other")
	tests := []struct {
		cands []Hash
		want  Hash
	}{
		{[]Hash{old, newer}, newer},
		{[]Hash{newer, old}, newer},
		{[]Hash{old, other, newer}, other},
		{nil, ZeroHash},
	}
	for _, tt := range tests {
		got, err := r.History().bestBase(tt.cands)
		if err != nil || got != tt.want {
			t.Errorf("bestBase(%v) = %s, %v; want %s", tt.cands, got, err, tt.want)
		}
	}
}

// TestMergeBaseShallow checks that history ends at a shallow clone's
// boundary: the fork point lies beyond it, so there is no merge base.
func TestMergeBaseShallow(t *testing.T) {
	src, ids := makeHistory(t, histories[1])
	gitRun(t, src, "update-ref", "refs/heads/main", ids["d"].String())
	gitRun(t, src, "update-ref", "refs/heads/topic", ids["t2"].String())
	dst := t.TempDir()
	gitRun(t, dst, "clone", "-q", "--bare", "--depth=1", "--no-single-branch", "file://"+src, "clone.git")
	r, err := Open(dst + "/clone.git")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	checkMergeBase(t, r, r.GitDir(), "main topic", ids["d"], ids["t2"])
	if got, err := r.History().MergeBase(ids["d"], ids["t2"]); err != nil || !got.IsZero() {
		t.Errorf("MergeBase across the shallow boundary = %s, %v; want none", got, err)
	}
}
