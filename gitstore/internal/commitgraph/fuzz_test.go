package commitgraph

import (
	"strings"
	"testing"
)

// FuzzOpen parses damaged copies of a real graph file and uses whatever
// parses: every call must return, with an error at worst. Run it with
// -fuzzminimizetime 1s: minimizing each new input of the few-kilobyte seed
// for the default minute leaves little time for fuzzing.
func FuzzOpen(f *testing.F) {
	seed := graphBytes(f, "small")
	f.Add(seed)
	f.Add(seed[:len(seed)/3])
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := parseLayer("fuzz/commit-graph", data)
		if err != nil {
			return
		}
		g, err := newGraph([]*layer{l})
		if err != nil {
			return
		}
		exercise(g)
	})
}

// exercise calls every query on the first commits of g.
func exercise(g *Graph) {
	_ = g.Verify()
	q := NewPathQuery("skills/café-tools/SKILL.md")
	n := min(g.Len(), 64)
	for pos := uint32(0); pos < n; pos++ {
		_, _ = g.Commit(pos)
		_, _ = g.ParentIDs(pos)
		g.Lookup(g.ID(pos))
		g.MaybeChanged(pos, "skills/pdf")
		g.MaybeChangedQuery(pos, q)
		steps := 0
		for _, err := range g.FirstParents(pos) {
			if steps++; err != nil || steps > 1000 {
				break
			}
		}
		_, _ = g.MergeBase(0, pos)
	}
	g.HasChangedPaths()
}

// FuzzBloom checks the filter query on arbitrary filters, settings and
// paths (never a panic), and that a filter built from a set of paths finds
// each of them and their folders (never a false negative), in both hash
// versions.
func FuzzBloom(f *testing.F) {
	f.Add([]byte{0x12, 0x34}, uint8(7), true, "skills/pdf/SKILL.md", "skills/café/x")
	f.Add([]byte{}, uint8(0), false, "", "/")
	f.Add([]byte{0xff}, uint8(64), false, "\x99\xaa\xbb\xcc\xdd\xee\xff", "a/b/c/d")
	f.Fuzz(func(t *testing.T, filter []byte, k uint8, v2 bool, path, other string) {
		version := uint32(1)
		if v2 {
			version = 2
		}
		numHashes := uint32(k%maxBloomHashes) + 1
		q := NewPathQuery(path)
		for _, key := range q.keys(version) {
			key.contains(filter, numHashes)
		}
		set := map[string]bool{}
		for _, p := range []string{q.Path(), NewPathQuery(other).Path()} {
			for p != "" {
				set[p] = true
				i := strings.LastIndexByte(p, '/')
				if i < 0 {
					break
				}
				p = p[:i]
			}
		}
		built := buildFilter(set, version, numHashes, 10)
		for _, key := range q.keys(version) {
			if !key.contains(built, numHashes) {
				t.Fatalf("built filter misses %q (version %d, %d hashes)", q.Path(), version, numHashes)
			}
		}
	})
}
