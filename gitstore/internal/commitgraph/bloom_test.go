package commitgraph

import (
	"strings"
	"testing"
)

// changedPaths asks git which paths each commit changed against its first
// parent (all files for a root commit), each with its leading folders.
func changedPaths(t testing.TB, dir string, commits map[string]gitCommit) map[string]map[string]bool {
	t.Helper()
	var in strings.Builder
	for id, c := range commits {
		in.WriteString(id)
		if len(c.parents) > 0 {
			in.WriteString(" " + c.parents[0])
		}
		in.WriteString("\n")
	}
	out := gitIn(t, dir, in.String(), "diff-tree", "--stdin", "-r", "--root", "--name-only", "--no-renames", "-z")
	changed := map[string]map[string]bool{}
	var cur map[string]bool
	for _, tok := range strings.Split(out, "\x00") {
		tok = strings.TrimSuffix(tok, "\n")
		if _, isCommit := commits[tok]; isCommit {
			cur = map[string]bool{}
			changed[tok] = cur
			continue
		}
		if tok == "" {
			continue
		}
		if cur == nil {
			t.Fatalf("diff-tree output starts with %q", tok)
		}
		for p := tok; ; {
			cur[p] = true
			i := strings.LastIndexByte(p, '/')
			if i < 0 {
				break
			}
			p = p[:i]
		}
	}
	return changed
}

// bloomStats counts the outcomes of querying every path at every commit.
type bloomStats struct {
	unknown, tooLarge, empty         int
	truePos, falsePos, trueNeg       int
	nonASCIIChecks, falseNegOtherVer int
}

// checkBloom asks the graph of fixture kind about every path at every
// commit. A path git says changed must never get maybe=false.
func checkBloom(t *testing.T, kind string) bloomStats {
	dir := fixture(t, kind)
	g := openFixture(t, kind)
	commits := gitLog(t, dir)
	changed := changedPaths(t, dir, commits)
	universe := map[string]*PathQuery{}
	for _, paths := range changed {
		for p := range paths {
			universe[p] = NewPathQuery(p)
		}
	}
	var st bloomStats
	for id := range commits {
		pos, _ := g.Lookup(mustID(t, id))
		if _, known := g.MaybeChanged(pos, "skills"); !known {
			st.unknown++
			continue
		}
		switch filterKind(g, pos) {
		case "too large":
			st.tooLarge++
		case "empty":
			st.empty++
		}
		for p, q := range universe {
			maybe, known := g.MaybeChangedQuery(pos, q)
			if !known {
				t.Fatalf("commit %s: filter known for one path, not for %s", id, p)
			}
			switch {
			case changed[id][p] && !maybe:
				t.Fatalf("false negative: commit %s changed %s, the %s filter says it did not", id, p, kind)
			case changed[id][p]:
				st.truePos++
				if !isASCII(p) {
					st.nonASCIIChecks++
					if !otherVersionFinds(g, pos, p) {
						st.falseNegOtherVer++
					}
				}
			case maybe && filterKind(g, pos) == "":
				st.falsePos++
			case !maybe:
				st.trueNeg++
			}
		}
	}
	return st
}

// filterKind classifies the filter of the commit at pos: "empty" (no
// change), "too large" (all bits set) or "" (an ordinary filter).
func filterKind(g *Graph, pos uint32) string {
	l, i, _ := g.locate(pos)
	f, _ := l.bloom.filter(i)
	if len(f) == 1 && f[0] == 0 {
		return "empty"
	}
	if strings.Count(string(f), "\xff") == len(f) {
		return "too large"
	}
	return ""
}

// otherVersionFinds reports whether the path's keys computed with the
// other hash version are also all in the commit's filter.
func otherVersionFinds(g *Graph, pos uint32, path string) bool {
	l, i, _ := g.locate(pos)
	f, _ := l.bloom.filter(i)
	other := 3 - l.bloom.version
	for p := path; ; {
		if !newBloomKey(p, other).contains(f, l.bloom.numHashes) {
			return false
		}
		k := strings.LastIndexByte(p, '/')
		if k < 0 {
			return true
		}
		p = p[:k]
	}
}

// TestBloomMatchesGit checks git's changed-path filters, single file and
// split chain: no false negatives ever, few false positives, the "too
// large" and empty filters read right, and non-ASCII paths hashed as the
// filter's version demands (the other version must miss some of them).
func TestBloomMatchesGit(t *testing.T) {
	for _, kind := range []string{"paths", "split"} {
		t.Run(kind, func(t *testing.T) {
			st := checkBloom(t, kind)
			rate := float64(st.falsePos) / float64(st.falsePos+st.trueNeg)
			t.Logf("%s: %d true positives, %d false positives, %d true negatives (false-positive rate %.2f%%); "+
				"%d too large, %d empty, %d without filter; %d non-ASCII path checks, %d missed by the other hash version",
				kind, st.truePos, st.falsePos, st.trueNeg, 100*rate, st.tooLarge, st.empty, st.unknown,
				st.nonASCIIChecks, st.falseNegOtherVer)
			if rate > 0.10 {
				t.Errorf("false-positive rate %.2f%% is above 10%%", 100*rate)
			}
			if st.unknown != 0 || st.empty == 0 || st.truePos == 0 || st.trueNeg == 0 {
				t.Errorf("every commit should have a filter, some empty: %+v", st)
			}
			if kind == "paths" && st.tooLarge == 0 {
				t.Errorf("the commit with 600 files should have a too-large filter: %+v", st)
			}
			if st.nonASCIIChecks == 0 || st.falseNegOtherVer == 0 {
				t.Errorf("non-ASCII paths do not tell the hash versions apart: %+v", st)
			}
		})
	}
}

// TestBloomPartialFilters reads a graph written with --max-new-filters:
// commits without a computed filter are unknown, the others exact.
func TestBloomPartialFilters(t *testing.T) {
	st := checkBloom(t, "partial")
	t.Logf("partial: %d commits without filter, %d true positives", st.unknown, st.truePos)
	if st.unknown == 0 || st.truePos == 0 {
		t.Fatalf("want some commits with filters and some without: %+v", st)
	}
}

// TestBloomNoFilters: a graph written without --changed-paths knows
// nothing about paths.
func TestBloomNoFilters(t *testing.T) {
	g := openFixture(t, "plain")
	if _, ok := g.HasChangedPaths(); ok {
		t.Fatal("plain graph reports changed-path filters")
	}
	for pos := uint32(0); pos < g.Len(); pos++ {
		if maybe, known := g.MaybeChanged(pos, "skills/pdf/SKILL.md"); known || !maybe {
			t.Fatalf("commit %d: maybe %v known %v without filters", pos, maybe, known)
		}
	}
}
