package commitgraph

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// buildFilter makes the filter git would write for paths (files and their
// folders): bitsPerEntry bits a path rounded up to whole bytes, at least
// one byte, each path setting numHashes bits.
func buildFilter(paths map[string]bool, version, numHashes, bitsPerEntry uint32) []byte {
	size := (len(paths)*int(bitsPerEntry) + 7) / 8
	if size == 0 {
		size = 1
	}
	f := make([]byte, size)
	nbits := uint32(size * 8)
	for p := range paths {
		k := newBloomKey(p, version)
		for j := uint32(0); j < numHashes; j++ {
			pos := (k.h0 + j*k.h1) % nbits
			f[pos>>3] |= 1 << (pos & 7)
		}
	}
	return f
}

// TestBloomFiltersBitExact rebuilds every ordinary filter of git's graph
// from the paths git says changed and compares the bytes: the hash, the
// seeds, the double hashing and the sizing all have to agree.
func TestBloomFiltersBitExact(t *testing.T) {
	for _, kind := range []string{"paths", "split"} {
		dir := fixture(t, kind)
		g := openFixture(t, kind)
		commits := gitLog(t, dir)
		changed := changedPaths(t, dir, commits)
		compared := 0
		for id := range commits {
			pos, _ := g.Lookup(mustID(t, id))
			l, i, _ := g.locate(pos)
			got, _ := l.bloom.filter(i)
			if filterKind(g, pos) == "too large" {
				continue
			}
			want := buildFilter(changed[id], l.bloom.version, l.bloom.numHashes, l.bloom.bitsPerEntry)
			if !bytes.Equal(got, want) {
				t.Fatalf("%s: commit %s filter %x, rebuilt %x", kind, id, got, want)
			}
			compared++
		}
		if compared < len(commits)-1 {
			t.Fatalf("%s: compared %d of %d filters", kind, compared, len(commits))
		}
	}
}

// rewriteGraph returns a copy of the graph file data with the chunks in
// repl replacing (or adding to) its own and a fresh checksum.
func rewriteGraph(t testing.TB, data []byte, repl map[uint32][]byte) []byte {
	t.Helper()
	chunks, err := readChunks("test", data, int(data[6]))
	if err != nil {
		t.Fatal(err)
	}
	for id, c := range repl {
		chunks[id] = c
	}
	ids := make([]uint32, 0, len(chunks))
	for id := range chunks {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := append([]byte{}, data[:headerSize]...)
	out[6] = byte(len(ids))
	off := uint64(headerSize + (len(ids)+1)*chunkEntry)
	for _, id := range ids {
		out = binary.BigEndian.AppendUint32(out, id)
		out = binary.BigEndian.AppendUint64(out, off)
		off += uint64(len(chunks[id]))
	}
	out = binary.BigEndian.AppendUint32(out, 0)
	out = binary.BigEndian.AppendUint64(out, off)
	for _, id := range ids {
		out = append(out, chunks[id]...)
	}
	sum := sha1.Sum(out)
	return append(out, sum[:]...)
}

// TestBloomVersion2 checks version 2 filters. If the installed git writes
// them (commitGraph.changedPathsVersion=2), its graph is checked like the
// version 1 graphs. Either way, the version 1 graph git wrote is rewritten
// with version 2 filters built from git's changed paths, and read back:
// non-ASCII paths must be found with unsigned-byte hashing.
func TestBloomVersion2(t *testing.T) {
	gv := git(t, "", "version")
	g2 := openFixture(t, "v2")
	v, ok := g2.HasChangedPaths()
	switch {
	case !ok:
		t.Fatal("git wrote no changed-path filters with commitGraph.changedPathsVersion=2")
	case v == 2:
		t.Logf("%s writes version 2 filters: checking them against git", bytes.TrimSpace([]byte(gv)))
		st := checkBloom(t, "v2")
		if st.nonASCIIChecks == 0 || st.falseNegOtherVer == 0 {
			t.Fatalf("non-ASCII paths do not tell the versions apart: %+v", st)
		}
	default:
		t.Logf("%s ignores commitGraph.changedPathsVersion=2 and writes version %d filters; "+
			"version 2 is checked on a graph rewritten with version 2 filters and on murmur3 vectors only",
			bytes.TrimSpace([]byte(gv)), v)
	}
	dir := fixture(t, "paths")
	commits := gitLog(t, dir)
	changed := changedPaths(t, dir, commits)
	g1 := openFixture(t, "paths")
	l := g1.layers[0]
	var bidx, bdat []byte
	bdat = binary.BigEndian.AppendUint32(bdat, 2)
	bdat = binary.BigEndian.AppendUint32(bdat, l.bloom.numHashes)
	bdat = binary.BigEndian.AppendUint32(bdat, 10)
	for pos := uint32(0); pos < g1.Len(); pos++ {
		f := []byte{0xff}
		if filterKind(g1, pos) != "too large" {
			f = buildFilter(changed[hexOf(g1.ID(pos))], 2, l.bloom.numHashes, 10)
		}
		bdat = append(bdat, f...)
		bidx = binary.BigEndian.AppendUint32(bidx, uint32(len(bdat)-bloomHeader))
	}
	rewritten := rewriteGraph(t, l.data, map[uint32][]byte{chunkBIDX: bidx, chunkBDAT: bdat})
	objects := filepath.Join(t.TempDir(), "objects")
	if err := os.MkdirAll(filepath.Join(objects, "info"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(objects, "info", "commit-graph"), rewritten, 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := Open(objects)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if err := g.Verify(); err != nil {
		t.Fatal(err)
	}
	if v, _ := g.HasChangedPaths(); v != 2 {
		t.Fatalf("rewritten graph reads as version %d", v)
	}
	nonASCII, missedByV1 := 0, 0
	for id, paths := range changed {
		pos, _ := g.Lookup(mustID(t, id))
		for p := range paths {
			if maybe, known := g.MaybeChanged(pos, p); !maybe || !known {
				t.Fatalf("version 2: commit %s changed %s, maybe %v known %v", id, p, maybe, known)
			}
			if !isASCII(p) {
				nonASCII++
				if filterKind(g, pos) == "" && !otherVersionFinds(g, pos, p) {
					missedByV1++
				}
			}
		}
	}
	if nonASCII == 0 || missedByV1 == 0 {
		t.Fatalf("%d non-ASCII paths checked, %d missed by version 1 hashing: the versions are not told apart", nonASCII, missedByV1)
	}
}
