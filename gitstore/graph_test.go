package gitstore

import (
	"strings"
	"testing"
)

// TestMergeBaseFromGraphMatchesGit writes git's commit-graph for each history, for every
// commit or, split, for a part of them, and compares MergeBase and IsAncestor with git for
// every ordered pair: pairs the graph holds are answered by it, the others by the walk.
func TestMergeBaseFromGraphMatchesGit(t *testing.T) {
	for _, h := range histories {
		parts := []string{"all"}
		if len(h.commits) > 5 {
			parts = append(parts, "half")
		}
		for _, part := range parts {
			t.Run(h.name+"/"+part, func(t *testing.T) {
				dir, ids := makeHistory(t, h)
				var in []string
				for i, line := range h.commits {
					if part == "all" || i < (len(h.commits)+1)/2 {
						in = append(in, ids[strings.Fields(line)[0]].String())
					}
				}
				gitIn(t, dir, strings.Join(in, "\n")+"\n", "commit-graph", "write", "--stdin-commits", "--split")
				r, err := Open(dir)
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				g := r.History().graph()
				if g == nil || int(g.Len()) < len(in) {
					t.Fatalf("the commit-graph git wrote is not read: %v", g)
				}
				for x, xid := range ids {
					for y, yid := range ids {
						checkMergeBase(t, r, dir, x+" "+y, xid, yid)
						want, _ := r.History().IsAncestor(xid, yid)
						if in, ok := r.History().reach.answer(xid, yid); !ok || in != want {
							t.Fatalf("%s %s: IsAncestor = %v is not remembered (%v, %v), so a batch asking it again walks again", x, y, want, in, ok)
						}
					}
				}
			})
		}
	}
}

// TestGraphIgnoredWhenShallow: in a shallow clone the graph may know parents the clone
// lacks, so it is not used, as git does not use it.
func TestGraphIgnoredWhenShallow(t *testing.T) {
	dir, ids := makeHistory(t, histories[0])
	gitIn(t, dir, ids["e"].String()+"\n", "commit-graph", "write", "--stdin-commits")
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.History().graph() == nil {
		t.Fatal("the graph of a full repository is not read")
	}
	r.Close()
	writeFiles(t, dir, map[string]string{".git/shallow": strings.Repeat("0", 40) + "\n"})
	r, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.History().graph() != nil {
		t.Fatal("the graph of a shallow clone is read")
	}
}

// TestMayHaveChanged asks git's changed-path filters about commits that changed a folder
// and commits that did not, and checks the answer is never "unchanged" for a changed path.
func TestMayHaveChanged(t *testing.T) {
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q", "-b", "main")
	writeFiles(t, dir, map[string]string{"skills/a/SKILL.md": "a\n", "docs/x.md": "x\n"})
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "first")
	writeFiles(t, dir, map[string]string{"docs/x.md": "y\n"})
	gitRun(t, dir, "commit", "-q", "-am", "docs only")
	docs := strings.TrimSpace(gitRun(t, dir, "rev-parse", "HEAD"))
	writeFiles(t, dir, map[string]string{"skills/a/SKILL.md": "b\n"})
	gitRun(t, dir, "commit", "-q", "-am", "skill")
	skill := strings.TrimSpace(gitRun(t, dir, "rev-parse", "HEAD"))
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !r.History().MayHaveChanged(hashHex(t, docs), "skills") {
		t.Fatal("without a graph, MayHaveChanged says a commit left the path alone")
	}
	r.Close()
	gitRun(t, dir, "commit-graph", "write", "--reachable", "--changed-paths")
	r, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, c := range []struct {
		commit, path string
		want         bool
	}{{docs, "skills", false}, {docs, "docs", true}, {skill, "skills", true}, {skill, "skills/a", true}, {skill, "skills/a/SKILL.md", true}} {
		if got := r.History().MayHaveChanged(hashHex(t, c.commit), c.path); got != c.want {
			t.Errorf("MayHaveChanged(%s, %s) = %v; want %v", c.commit[:7], c.path, got, c.want)
		}
	}
}

func hashHex(t *testing.T, s string) Hash {
	t.Helper()
	h, ok := parseHex(s)
	if !ok {
		t.Fatalf("%q is not an id", s)
	}
	return h
}
