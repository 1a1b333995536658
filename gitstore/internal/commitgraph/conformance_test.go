package commitgraph

import (
	"slices"
	"testing"
)

// TestCommitsMatchGit checks every commit of every graph shape against
// git log: parents in order, root tree, commit time, and the generation
// numbers recomputed here from the DAG git reports.
func TestCommitsMatchGit(t *testing.T) {
	for _, kind := range []string{"plain", "paths", "split"} {
		t.Run(kind, func(t *testing.T) {
			g := openFixture(t, kind)
			want := gitLog(t, fixture(t, kind))
			if int(g.Len()) != len(want) {
				t.Fatalf("graph has %d commits, git log lists %d", g.Len(), len(want))
			}
			if kind == "split" && g.Layers() != 3 {
				t.Fatalf("split graph has %d layers, want 3", g.Layers())
			}
			if g.GenerationVersion() != 2 {
				t.Fatalf("generation version %d, want corrected commit dates (2)", g.GenerationVersion())
			}
			levels, dates := expectedGenerations(want)
			for id, c := range want {
				checkCommit(t, g, c, levels[id], dates[id])
			}
		})
	}
}

// checkCommit compares the graph's record of c with git's.
func checkCommit(t *testing.T, g *Graph, c gitCommit, level int64, date int64) {
	t.Helper()
	pos, ok := g.Lookup(mustID(t, c.id))
	if !ok {
		t.Fatalf("commit %s not found", c.id)
	}
	if hexOf(g.ID(pos)) != c.id {
		t.Fatalf("ID(%d) = %s, want %s", pos, hexOf(g.ID(pos)), c.id)
	}
	got, err := g.Commit(pos)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := g.ParentIDs(pos)
	if err != nil {
		t.Fatal(err)
	}
	var parents []string
	for _, id := range ids {
		parents = append(parents, hexOf(id))
	}
	if !slices.Equal(parents, c.parents) {
		t.Fatalf("commit %s: parents %v, want %v", c.id, parents, c.parents)
	}
	if hexOf(got.RootTree) != c.tree || got.CommitTime != c.time {
		t.Fatalf("commit %s: tree %s time %d, want %s %d", c.id, hexOf(got.RootTree), got.CommitTime, c.tree, c.time)
	}
	if int64(got.Level) != level || int64(got.Generation) != date {
		t.Fatalf("commit %s: level %d generation %d, want %d %d", c.id, got.Level, got.Generation, level, date)
	}
	if gen, err := g.Generation(pos); err != nil || gen != got.Generation {
		t.Fatalf("Generation(%d) = %d, %v; Commit says %d", pos, gen, err, got.Generation)
	}
}

// expectedGenerations computes, from git's DAG, each commit's topological
// level (1 + the highest parent level) and corrected commit date (its
// time, or one more than the latest parent's corrected date if that is
// later).
func expectedGenerations(commits map[string]gitCommit) (levels, dates map[string]int64) {
	levels, dates = map[string]int64{}, map[string]int64{}
	var visit func(id string)
	visit = func(id string) {
		if _, done := levels[id]; done {
			return
		}
		c := commits[id]
		level, date := int64(1), c.time
		for _, p := range c.parents {
			visit(p)
			level = max(level, levels[p]+1)
			date = max(date, dates[p]+1)
		}
		levels[id], dates[id] = level, date
	}
	for id := range commits {
		visit(id)
	}
	return levels, dates
}

// TestShapesExercised makes sure the fixtures contain what the other
// tests claim to cover: octopus merges (EDGE), generation offsets past 31
// bits (GDO2) and a chain of layers.
func TestShapesExercised(t *testing.T) {
	for _, kind := range []string{"paths", "split"} {
		g := openFixture(t, kind)
		var edge, gdo2 int
		for _, l := range g.layers {
			edge += len(l.edge)
			gdo2 += len(l.gdo2)
		}
		if edge == 0 || gdo2 == 0 {
			t.Errorf("%s: EDGE %d bytes, GDO2 %d bytes; want both used", kind, edge, gdo2)
		}
		octopus := 0
		for pos := uint32(0); pos < g.Len(); pos++ {
			ps, err := g.Parents(pos, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(ps) > 2 {
				octopus++
			}
		}
		if octopus == 0 {
			t.Errorf("%s: no octopus merge in the graph", kind)
		}
	}
}
