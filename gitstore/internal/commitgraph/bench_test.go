package commitgraph

import (
	"path/filepath"
	"strings"
	"testing"

	gogit "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// benchCommits is the length of the benchmark history's main line.
const benchCommits = 2000

// benchRepo returns the "bench" fixture: a main line of benchCommits
// commits with a --changed-paths graph.
func benchRepo(b *testing.B) string { return fixture(b, "bench") }

// benchTip opens the bench graph and finds main's tip.
func benchTip(b *testing.B, dir string) (*Graph, uint32, string) {
	g, err := Open(filepath.Join(dir, ".git", "objects"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { g.Close() })
	tip := strings.TrimSpace(git(b, dir, "rev-parse", "main"))
	pos, ok := g.Lookup(mustID(b, tip))
	if !ok {
		b.Fatal("tip not in graph")
	}
	return g, pos, tip
}

// BenchmarkFirstParentWalk walks main's first-parent line to the root,
// reading parents from the commit-graph, then from commit objects with
// go-git.
func BenchmarkFirstParentWalk(b *testing.B) {
	dir := benchRepo(b)
	g, start, tip := benchTip(b, dir)
	b.Run("graph", func(b *testing.B) {
		for b.Loop() {
			n := 0
			for _, err := range g.FirstParents(start) {
				if err != nil {
					b.Fatal(err)
				}
				n++
			}
			if n != benchCommits {
				b.Fatalf("walked %d commits", n)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchCommits), "ns/commit")
	})
	b.Run("go-git", func(b *testing.B) {
		repo, err := gogit.PlainOpen(dir)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			n, h := 0, plumbing.NewHash(tip)
			for {
				c, err := repo.CommitObject(h)
				if err != nil {
					b.Fatal(err)
				}
				n++
				if c.NumParents() == 0 {
					break
				}
				h = c.ParentHashes[0]
			}
			if n != benchCommits {
				b.Fatalf("walked %d commits", n)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchCommits), "ns/commit")
	})
}

// BenchmarkMaybeChanged is the cost of one Bloom filter query with a
// prepared path, and of preparing the path.
func BenchmarkMaybeChanged(b *testing.B) {
	g, start, _ := benchTip(b, benchRepo(b))
	q := NewPathQuery("skills/pdf/SKILL.md")
	b.Run("query", func(b *testing.B) {
		pos := start
		for b.Loop() {
			g.MaybeChangedQuery(pos, q)
			pos = (pos + 1) % g.Len()
		}
	})
	b.Run("prepare", func(b *testing.B) {
		for b.Loop() {
			NewPathQuery("skills/pdf/SKILL.md")
		}
	})
}

// BenchmarkOpen is the cost of opening (mapping and checking) a graph.
func BenchmarkOpen(b *testing.B) {
	objects := filepath.Join(benchRepo(b), ".git", "objects")
	for b.Loop() {
		g, err := Open(objects)
		if err != nil {
			b.Fatal(err)
		}
		g.Close()
	}
}
