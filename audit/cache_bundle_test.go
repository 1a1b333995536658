package audit

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// batchReports puts n reports, one per tree "tree-<i>", in a batch of c and flushes it.
func batchReports(t *testing.T, c *Cache, n int, limit int) map[string]*Report {
	t.Helper()
	b := c.NewBatch()
	if limit > 0 {
		b.limit = limit
	}
	want := map[string]*Report{}
	for i := range n {
		r := withRisk(&Report{Findings: []Finding{}, Files: i + 1, Bytes: int64(i)})
		if i%3 == 0 {
			r = cachedReport()
		}
		tree := fmt.Sprintf("tree-%d", i)
		want[tree] = r
		mustDo(t, b.Put(tree, "policy", "", r))
	}
	mustDo(t, b.Flush())
	return want
}

// cacheFiles lists the files under the cache folder, by their path relative to it.
func cacheFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}

func TestBatchStoresManyInOneBundle(t *testing.T) {
	dir := t.TempDir()
	c := &Cache{Dir: dir}
	want := batchReports(t, c, 500, 0)
	files := cacheFiles(t, dir)
	if len(files) != 1 || !strings.HasPrefix(files[0], bundleFolder+"/") {
		t.Fatalf("cache files = %v, want one bundle", files)
	}
	// A fresh Cache, as another process would have, finds every report.
	other := &Cache{Dir: dir}
	findsAll(t, other, want)
	for _, miss := range [][3]string{{"tree-500", "policy", ""}, {"tree-1", "other", ""}, {"tree-1", "policy", "base"}} {
		if _, ok := other.Get(miss[0], miss[1], miss[2]); ok {
			t.Errorf("Get%v hit; nothing was stored under that key", miss)
		}
	}
}

func TestBatchStoresFewAsEntryFiles(t *testing.T) {
	dir := t.TempDir()
	c := &Cache{Dir: dir}
	want := batchReports(t, c, minBundle-1, 0)
	files := cacheFiles(t, dir)
	if len(files) != minBundle-1 {
		t.Fatalf("cache files = %v, want %d entry files", files, minBundle-1)
	}
	for _, f := range files {
		if strings.HasPrefix(f, bundleFolder+"/") {
			t.Fatalf("a batch of %d wrote bundle %s", minBundle-1, f)
		}
	}
	for tree := range want {
		if _, ok := c.Get(tree, "policy", ""); !ok {
			t.Fatalf("Get %s missed", tree)
		}
	}
}

func TestBatchSplitsAtLimit(t *testing.T) {
	dir := t.TempDir()
	c := &Cache{Dir: dir}
	// A limit of a few entries' bytes makes several bundles, and every report is found.
	want := batchReports(t, c, 200, 20*len(encodeCacheEntry(newCacheKey("tree-1", "policy", ""), cachedReport())))
	bundles, _ := os.ReadDir(filepath.Join(dir, bundleFolder))
	if len(bundles) < 3 {
		t.Fatalf("%d bundles, want several: the batch did not split at its limit", len(bundles))
	}
	for tree := range want {
		if _, ok := (&Cache{Dir: dir}).Get(tree, "policy", ""); !ok {
			t.Fatalf("Get %s missed", tree)
		}
	}
}

func TestBatchSameKeyKeepsLast(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	b := c.NewBatch()
	for i := range minBundle {
		mustDo(t, b.Put(fmt.Sprintf("tree-%d", i), "policy", "", cachedReport()))
	}
	last := withRisk(&Report{Findings: []Finding{}, Files: 42})
	mustDo(t, b.Put("tree-0", "policy", "", last))
	mustDo(t, b.Flush())
	got, ok := c.Get("tree-0", "policy", "")
	if !ok || got.Files != 42 {
		t.Fatalf("Get tree-0 = %+v, %v; want the report put last", got, ok)
	}
}

func TestBundleDamageIsAMiss(t *testing.T) {
	tests := []struct {
		name string
		edit func(data []byte, dataStart int) []byte
		// all says every key misses; otherwise only the damaged entry does.
		all bool
	}{
		{"head byte flipped", func(d []byte, _ int) []byte { d[bundleHeadSize-20] ^= 1; return d }, true},
		{"count raised", func(d []byte, _ int) []byte { d[len(bundleMagic)+4]++; return d }, true},
		{"record byte flipped", func(d []byte, _ int) []byte { d[bundleHeadSize+5] ^= 1; return d }, false},
		{"record byte flipped, checksums right", func(d []byte, _ int) []byte {
			d[bundleHeadSize+5] ^= 1
			return resealBundle(d)
		}, false},
		{"cut in the index", func(d []byte, _ int) []byte { return d[:bundleHeadSize+10] }, true},
		{"not a bundle", func(d []byte, _ int) []byte { return []byte("SGAW\x01garbage") }, true},
		{"entry byte flipped", func(d []byte, start int) []byte { d[start+10] ^= 1; return d }, false},
		{"cut in the entries", func(d []byte, start int) []byte { return d[:len(d)-3] }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			want := batchReports(t, &Cache{Dir: dir}, 40, 0)
			entries, _ := os.ReadDir(filepath.Join(dir, bundleFolder))
			if len(entries) != 1 {
				t.Fatalf("%d bundles, want 1", len(entries))
			}
			path := filepath.Join(dir, bundleFolder, entries[0].Name())
			data, err := os.ReadFile(path)
			mustDo(t, err)
			f, err := readBundleIndex(path)
			mustDo(t, err)
			mustDo(t, os.WriteFile(path, tt.edit(data, int(f.data)), 0o600))
			c := &Cache{Dir: dir}
			hits := 0
			for tree, r := range want {
				got, ok := c.Get(tree, "policy", "")
				if ok {
					hits++
					if diff := cmp.Diff(r, got); diff != "" {
						t.Fatalf("damaged bundle gave a wrong report for %s (-want +got):\n%s", tree, diff)
					}
				}
			}
			switch {
			case tt.all && hits != 0:
				t.Errorf("%d hits from a bundle with a damaged index, want none", hits)
			case !tt.all && (hits == 0 || hits == len(want)):
				t.Errorf("%d of %d hits; want every entry but the damaged one", hits, len(want))
			}
		})
	}
}

// resealBundle sets the checksums of a bundle's records and head to what they hold.
func resealBundle(d []byte) []byte {
	at := len(bundleMagic) + 1
	fan := func(i int) int { return int(binary.BigEndian.Uint32(d[at+4+4*i:])) }
	from := 0
	for i := range 256 {
		to := fan(i)
		sum := crc32.Checksum(d[bundleHeadSize+from*bundleRecordSize:bundleHeadSize+to*bundleRecordSize], castagnoli)
		binary.BigEndian.PutUint32(d[at+4+1024+4*i:], sum)
		from = to
	}
	binary.BigEndian.PutUint32(d[bundleHeadSize-4:], crc32.Checksum(d[:bundleHeadSize-4], castagnoli))
	return d
}

// TestBundleLookupReadsOneBucket checks that looking one skill up in a bundle reads only the
// records of its key sum's first byte.
func TestBundleLookupReadsOneBucket(t *testing.T) {
	dir := t.TempDir()
	want := batchReports(t, &Cache{Dir: dir}, 600, 0)
	c := &Cache{Dir: dir}
	if _, ok := c.Get("tree-7", "policy", ""); !ok {
		t.Fatal("Get missed a report stored in a bundle")
	}
	files := c.bundles.list(dir)
	if len(files) != 1 {
		t.Fatalf("%d bundles, want 1", len(files))
	}
	read := 0
	for _, r := range files[0].read {
		if r {
			read++
		}
	}
	if read != 1 {
		t.Errorf("one lookup read the records of %d first bytes, want 1", read)
	}
	findsAll(t, c, want)
}

// findsAll checks that c finds every report of want, by tree.
func findsAll(t *testing.T, c *Cache, want map[string]*Report) {
	t.Helper()
	for tree, r := range want {
		got, ok := c.Get(tree, "policy", "")
		if !ok {
			t.Fatalf("Get %s missed a report stored in a bundle", tree)
		}
		if diff := cmp.Diff(r, got); diff != "" {
			t.Fatalf("%s (-want +got):\n%s", tree, diff)
		}
	}
}

func TestBundlesBounded(t *testing.T) {
	dir := t.TempDir()
	c := &Cache{Dir: dir}
	old := time.Now().Add(-2 * time.Hour)
	for i := range maxBundles + 3 {
		b := c.NewBatch()
		for j := range minBundle {
			mustDo(t, b.Put(fmt.Sprintf("tree-%d-%d", i, j), "policy", "", cachedReport()))
		}
		mustDo(t, b.Flush())
		// Each bundle looks a minute younger than the one before.
		entries, _ := os.ReadDir(filepath.Join(dir, bundleFolder))
		for _, e := range entries {
			fi, _ := e.Info()
			if time.Since(fi.ModTime()) < time.Minute {
				at := old.Add(time.Duration(i) * time.Minute)
				mustDo(t, os.Chtimes(filepath.Join(dir, bundleFolder, e.Name()), at, at))
			}
		}
	}
	entries, _ := os.ReadDir(filepath.Join(dir, bundleFolder))
	if len(entries) != maxBundles {
		t.Fatalf("%d bundles kept, want %d", len(entries), maxBundles)
	}
	fresh := &Cache{Dir: dir}
	if _, ok := fresh.Get("tree-0-0", "policy", ""); ok {
		t.Error("the oldest bundle's report is still found; it should have been removed")
	}
	if _, ok := fresh.Get(fmt.Sprintf("tree-%d-0", maxBundles+2), "policy", ""); !ok {
		t.Error("the newest bundle's report is missing")
	}
}

func TestBatchSeenByTheSameCache(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	// A miss reads the (empty) bundle indexes; a batch stored afterwards is still seen.
	if _, ok := c.Get("tree-1", "policy", ""); ok {
		t.Fatal("hit in an empty cache")
	}
	batchReports(t, c, 100, 0)
	if _, ok := c.Get("tree-1", "policy", ""); !ok {
		t.Fatal("a report stored in a bundle after a miss is not found by the same Cache")
	}
}

func TestBatchPutErrors(t *testing.T) {
	if err := (&Cache{}).NewBatch().Put("tree", "p", "", cachedReport()); err == nil {
		t.Error("Put into a cache without a folder succeeded")
	}
	c := &Cache{Dir: t.TempDir()}
	if err := c.NewBatch().Put("", "p", "", cachedReport()); err == nil {
		t.Error("Put without a tree id succeeded")
	}
	if err := c.NewBatch().Put("tree", "p", "", nil); err == nil {
		t.Error("Put of no report succeeded")
	}
}

func BenchmarkBatchPut(b *testing.B) {
	r := cachedReport()
	for b.Loop() {
		c := &Cache{Dir: b.TempDir()}
		batch := c.NewBatch()
		for i := range 1000 {
			if err := batch.Put(fmt.Sprintf("tree-%d", i), "policy", "", r); err != nil {
				b.Fatal(err)
			}
		}
		if err := batch.Flush(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCachePut1000(b *testing.B) {
	r := cachedReport()
	for b.Loop() {
		c := &Cache{Dir: b.TempDir()}
		for i := range 1000 {
			if err := c.Put(fmt.Sprintf("tree-%d", i), "policy", "", r); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestBundleConcurrentGet reads reports from bundles in parallel while another batch is
// stored, as the audit's workers do: every stored report is found, under the race detector
// without a race.
func TestBundleConcurrentGet(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	want := batchReports(t, c, 200, 0)
	done := make(chan error, 4)
	for w := range 4 {
		go func() {
			for tree := range want {
				if _, ok := c.Get(tree, "policy", ""); !ok {
					done <- fmt.Errorf("worker %d: Get %s missed", w, tree)
					return
				}
			}
			done <- nil
		}()
	}
	b := c.NewBatch()
	for i := range minBundle {
		mustDo(t, b.Put(fmt.Sprintf("later-%d", i), "policy", "", cachedReport()))
	}
	mustDo(t, b.Flush())
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
