package gitstore

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/skillgit/skillgit/gitstore/internal/commitgraph"
)

// graphState is the repository's commit-graph, opened on first use and again after
// skillgit extends it. Graphs replaced so stay open until the repository is closed, for
// readers that still hold them.
type graphState struct {
	mu     sync.Mutex
	loaded bool
	g      *commitgraph.Graph
	old    []*commitgraph.Graph
}

// graph returns git's commit-graph of the repository, or nil when there is none or it
// cannot be used: a repository in memory or reading a push's quarantine, a shallow clone or
// one with grafts (whose parents the graph does not know, so git ignores it there too), or a
// graph file that cannot be read. The graph answers only for the commits it holds; newer
// ones are read from their objects.
func (r *History) graph() *commitgraph.Graph {
	s := &r.graphs
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.loaded && r.graphUsable() {
		if g, err := commitgraph.Open((*Objects)(r).objectsDir()); err == nil {
			s.g = g
		}
	}
	s.loaded = true
	return s.g
}

// graphUsable reports whether git's commit-graph can describe this repository's commits.
func (r *History) graphUsable() bool {
	if r.objects == nil || r.commonDir == "" {
		return false
	}
	for _, f := range []string{"shallow", filepath.Join("info", "grafts")} {
		if _, err := os.Lstat(filepath.Join(r.commonDir, f)); err == nil {
			return false
		}
	}
	return true
}

// reloadGraph makes the next use of the graph read the files again. The graph replaced keeps
// its maps but not their pages: the new one maps the files of the chain's layers they share
// again, and a batch that extends the graph every few hundred commits would otherwise keep
// each of those files resident once per extension.
func (r *History) reloadGraph() {
	s := &r.graphs
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.g != nil {
		s.g.Release()
		s.old = append(s.old, s.g)
	}
	s.g, s.loaded = nil, false
}

// closeGraph releases the graphs' files.
func (r *History) closeGraph() {
	s := &r.graphs
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, g := range append(s.old, s.g) {
		if g != nil {
			g.Close()
		}
	}
	s.g, s.old, s.loaded = nil, nil, true
}

// graphPositions finds a and b in the commit-graph; ok is false when either is missing.
func (r *History) graphPositions(a, b Hash) (g *commitgraph.Graph, pa, pb uint32, ok bool) {
	if g = r.graph(); g == nil {
		return nil, 0, 0, false
	}
	if pa, ok = g.Lookup(a); !ok {
		return nil, 0, 0, false
	}
	if pb, ok = g.Lookup(b); !ok {
		return nil, 0, 0, false
	}
	return g, pa, pb, true
}

// graphMergeBase answers MergeBase from the commit-graph when it holds both commits: of the
// best common ancestors, the one with the newest committer date. ok is false when the graph
// cannot answer, and the commits are then walked.
func (r *History) graphMergeBase(a, b Hash) (base Hash, ok bool) {
	g, pa, pb, ok := r.graphPositions(a, b)
	if !ok {
		return ZeroHash, false
	}
	bases, err := g.MergeBase(pa, pb)
	if err != nil {
		return ZeroHash, false
	}
	var best commitgraph.Commit
	for i, p := range bases {
		c, err := g.Commit(p)
		if err != nil {
			return ZeroHash, false
		}
		if i == 0 || c.CommitTime > best.CommitTime {
			best = c
		}
	}
	if len(bases) == 0 {
		return ZeroHash, true
	}
	return Hash(g.ID(best.Pos)), true
}

// graphIsAncestor answers IsAncestor from the commit-graph when it holds both commits: a
// commit of a higher generation is never an ancestor, else a is one when it is b's merge
// base with b.
func (r *History) graphIsAncestor(a, b Hash) (in, ok bool) {
	g, pa, pb, ok := r.graphPositions(a, b)
	if !ok {
		return false, false
	}
	ga, errA := g.Generation(pa)
	gb, errB := g.Generation(pb)
	if errA != nil || errB != nil {
		return false, false
	}
	if ga > gb {
		return false, true
	}
	bases, err := g.MergeBase(pa, pb)
	if err != nil {
		return false, false
	}
	return len(bases) == 1 && bases[0] == pa, true
}

// MayHaveChanged reports whether commit h may have changed path (a file or folder relative to
// the repository's top) against its first parent. It is false only when the commit-graph's
// changed-path Bloom filter for h says the path certainly did not change; without a graph,
// a filter for h, or with an empty path it is true.
func (r *History) MayHaveChanged(h Hash, path string) bool {
	g := r.graph()
	if g == nil {
		return true
	}
	pos, ok := g.Lookup(h)
	if !ok {
		return true
	}
	maybe, _ := g.MaybeChanged(pos, path)
	return maybe
}
