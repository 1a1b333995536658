package audit

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func cachedReport() *Report { return goldenSkills()[0].Report }

func TestCacheHit(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	policy := PolicyHash(nil, nil)
	reports := map[string]*Report{"tree-a": cachedReport(), "tree-b": withRisk(&Report{Findings: []Finding{}, Files: 3})}
	for tree, r := range reports {
		if err := c.Put(tree, policy, "base-1", r); err != nil {
			t.Fatalf("Put %s: %v", tree, err)
		}
	}
	for tree, want := range reports {
		t.Run(tree, func(t *testing.T) {
			got, ok := c.Get(tree, policy, "base-1")
			if !ok {
				t.Fatal("Get missed a stored entry")
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("cached report (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCacheMiss(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	allow := &AllowList{Entries: []Allow{{Fingerprint: "abc", Reason: "ok"}}}
	policy := PolicyHash(allow, []string{"https://get.example.dev/install.sh"})
	if err := c.Put("tree", policy, "base", cachedReport()); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name                 string
		cache                *Cache
		tree, policy, base   string
		ruleset              int
		wantHit, useInternal bool
	}{
		{"same key", c, "tree", policy, "base", rulesetKey(), true, false},
		{"other tree", c, "tree2", policy, "base", rulesetKey(), false, false},
		{"other base", c, "tree", policy, "", rulesetKey(), false, false},
		{"allow list changed", c, "tree", PolicyHash(&AllowList{Entries: []Allow{{Fingerprint: "abc", Reason: "other"}}}, []string{"https://get.example.dev/install.sh"}), "base", rulesetKey(), false, false},
		{"installers changed", c, "tree", PolicyHash(allow, nil), "base", rulesetKey(), false, false},
		{"ruleset changed", c, "tree", policy, "base", rulesetKey() + 1, false, true},
		{"empty tree id", c, "", policy, "base", rulesetKey(), false, false},
		{"no folder", &Cache{}, "tree", policy, "base", rulesetKey(), false, false},
		{"nil cache", nil, "tree", policy, "base", rulesetKey(), false, false},
		{"missing folder", &Cache{Dir: filepath.Join(t.TempDir(), "none")}, "tree", policy, "base", rulesetKey(), false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ok bool
			if tt.useInternal {
				_, ok = tt.cache.get(cacheKey{tree: tt.tree, policy: tt.policy, base: tt.base, ruleset: tt.ruleset})
			} else {
				_, ok = tt.cache.Get(tt.tree, tt.policy, tt.base)
			}
			if ok != tt.wantHit {
				t.Errorf("hit = %v, want %v", ok, tt.wantHit)
			}
		})
	}
}

func TestCacheCorrupt(t *testing.T) {
	policy := PolicyHash(nil, nil)
	key := newCacheKey("tree", policy, "")
	good := encodeCacheEntry(key, cachedReport())
	badSeverity := cachedReport()
	badSeverity.Findings[0].Severity = 9
	wrongRisk := cachedReport()
	wrongRisk.Risk = RiskLow
	flipped := slices.Clone(good)
	flipped[len(flipped)/2] ^= 0x20
	tests := []struct {
		name  string
		write func(t *testing.T, file string)
	}{
		{"garbage", writeBytes([]byte("not an entry at all"))},
		{"empty", writeBytes(nil)},
		{"cut short", writeBytes(good[:len(good)/2])},
		{"flipped bit", writeBytes(flipped)},
		{"trailing bytes", writeBytes(append(slices.Clone(good), 0))},
		{"other key inside", writeBytes(encodeCacheEntry(newCacheKey("other", policy, ""), cachedReport()))},
		{"other format", writeBytes(resum(func(b []byte) { b[len(cacheMagic)]++ }, good))},
		{"bad severity", writeBytes(encodeCacheEntry(key, badSeverity))},
		{"risk does not add up", writeBytes(encodeCacheEntry(key, wrongRisk))},
		{"huge count", writeBytes(withChecksum(append(encodeCacheEntry(key, &Report{})[:len(encodeCacheEntry(key, &Report{}))-5], 0xff, 0xff, 0xff, 0x7f)))},
		{"oversized", writeBytes(append(slices.Clone(good), make([]byte, maxCacheEntry)...))},
		{"a folder", func(t *testing.T, file string) { mustDo(t, os.Mkdir(file, 0o700)) }},
		{"a symlink", func(t *testing.T, file string) {
			target := filepath.Join(t.TempDir(), "entry")
			mustDo(t, os.WriteFile(target, good, 0o600))
			mustDo(t, os.Symlink(target, file))
		}},
		{"a named pipe", func(t *testing.T, file string) { mustDo(t, mkfifo(file)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Cache{Dir: t.TempDir()}
			file := c.file(key)
			mustDo(t, os.MkdirAll(filepath.Dir(file), 0o700))
			tt.write(t, file)
			if r, ok := c.Get("tree", policy, ""); ok {
				t.Errorf("corrupt entry was a hit: %+v", r)
			}
			if tt.name == "a folder" {
				return // nothing can replace a folder by renaming a file onto it
			}
			if err := c.Put("tree", policy, "", cachedReport()); err != nil {
				t.Fatalf("Put over a corrupt entry: %v", err)
			}
			if _, ok := c.Get("tree", policy, ""); !ok {
				t.Error("Put did not replace the corrupt entry")
			}
		})
	}
	// The unmodified entry is a hit, so the cases above fail for their
	// own reason.
	c := &Cache{Dir: t.TempDir()}
	file := c.file(key)
	mustDo(t, os.MkdirAll(filepath.Dir(file), 0o700))
	writeBytes(good)(t, file)
	if _, ok := c.Get("tree", policy, ""); !ok {
		t.Error("the well-formed entry missed")
	}
}

// resum returns a copy of an entry changed by edit, with its checksum
// made right again, so that the decoder's other checks are what fail.
func resum(edit func([]byte), entry []byte) []byte {
	b := slices.Clone(entry[:len(entry)-4])
	edit(b)
	return withChecksum(b)
}

func withChecksum(body []byte) []byte {
	return binary.BigEndian.AppendUint32(slices.Clone(body), crc32.Checksum(body, castagnoli))
}

func writeBytes(data []byte) func(t *testing.T, file string) {
	return func(t *testing.T, file string) { mustDo(t, os.WriteFile(file, data, 0o600)) }
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestCachePutErrors(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	mustDo(t, os.WriteFile(blocker, nil, 0o600))
	huge := &Report{Findings: []Finding{{RuleID: "SG-X", Severity: Low, Message: strings.Repeat("m", maxCacheEntry)}}}
	tests := []struct {
		name   string
		cache  *Cache
		tree   string
		report *Report
	}{
		{"no folder", &Cache{}, "t", cachedReport()},
		{"nil cache", nil, "t", cachedReport()},
		{"no tree id", &Cache{Dir: t.TempDir()}, "", cachedReport()},
		{"no report", &Cache{Dir: t.TempDir()}, "t", nil},
		{"oversized", &Cache{Dir: t.TempDir()}, "t", huge},
		{"folder is a file", &Cache{Dir: blocker}, "t", cachedReport()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cache.Put(tt.tree, "p", "", tt.report)
			if err == nil {
				t.Fatal("Put succeeded")
			}
			if !strings.HasPrefix(err.Error(), "audit cache: ") {
				t.Errorf("error %q does not name the cache", err)
			}
		})
	}
}

func TestCacheConcurrentPut(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	policy := PolicyHash(nil, nil)
	want := cachedReport()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 40 {
				tree := fmt.Sprintf("tree-%d", i%10) // every goroutine writes the same ten entries
				if err := c.Put(tree, policy, "", want); err != nil {
					t.Errorf("goroutine %d: Put: %v", g, err)
					return
				}
				if got, ok := c.Get(tree, policy, ""); !ok || !cmp.Equal(want, got) {
					t.Errorf("goroutine %d: Get %s after Put: hit %v, equal %v", g, tree, ok, cmp.Equal(want, got))
					return
				}
			}
		})
	}
	wg.Wait()
	leftovers, err := filepath.Glob(filepath.Join(c.Dir, "*", ".tmp-*"))
	if err != nil || len(leftovers) > 0 {
		t.Errorf("temporary files left behind: %v %v", leftovers, err)
	}
}

func TestPolicyHash(t *testing.T) {
	a := &AllowList{Entries: []Allow{{Fingerprint: "f1", Rule: "SG-EXE-005", Reason: "installer"}, {Fingerprint: "f2", Reason: "docs"}}}
	base := PolicyHash(a, []string{"https://a.example/i.sh", "https://b.example/i.sh"})
	same := []string{
		PolicyHash(a, []string{"https://b.example/i.sh", "https://a.example/i.sh"}),
		PolicyHash(a, []string{"https://a.example/i.sh", "https://b.example/i.sh", "https://a.example/i.sh"}),
		PolicyHash(&AllowList{Entries: slices.Clone(a.Entries)}, []string{"https://a.example/i.sh", "https://b.example/i.sh"}),
	}
	for i, h := range same {
		if h != base {
			t.Errorf("equivalent policy %d hashes to %s, want %s", i, h, base)
		}
	}
	differ := map[string]string{
		"no policy":       PolicyHash(nil, nil),
		"reason":          PolicyHash(&AllowList{Entries: []Allow{{Fingerprint: "f1", Rule: "SG-EXE-005", Reason: "other"}, {Fingerprint: "f2", Reason: "docs"}}}, []string{"https://a.example/i.sh", "https://b.example/i.sh"}),
		"order":           PolicyHash(&AllowList{Entries: []Allow{a.Entries[1], a.Entries[0]}}, []string{"https://a.example/i.sh", "https://b.example/i.sh"}),
		"installer":       PolicyHash(a, []string{"https://a.example/i.sh"}),
		"field boundary":  PolicyHash(&AllowList{Entries: []Allow{{Fingerprint: "f1S", Rule: "G-EXE-005", Reason: "installer"}, {Fingerprint: "f2", Reason: "docs"}}}, []string{"https://a.example/i.sh", "https://b.example/i.sh"}),
		"installer split": PolicyHash(a, []string{"https://a.example/i.shhttps://b.example/i.sh"}),
		"skill scope":     PolicyHash(&AllowList{Entries: []Allow{{Skill: "docx", Fingerprint: "f1", Rule: "SG-EXE-005", Reason: "installer"}, a.Entries[1]}}, []string{"https://a.example/i.sh", "https://b.example/i.sh"}),
		"path scope":      PolicyHash(&AllowList{Entries: []Allow{{Path: "SKILL.md", Fingerprint: "f1", Rule: "SG-EXE-005", Reason: "installer"}, a.Entries[1]}}, []string{"https://a.example/i.sh", "https://b.example/i.sh"}),
	}
	for name, h := range differ {
		if h == base {
			t.Errorf("%s: a different policy hashes the same", name)
		}
	}
	if PolicyHash(nil, nil) != PolicyHash(&AllowList{}, []string{}) {
		t.Error("no allow list and an empty one hash differently")
	}
}

// BenchmarkCacheGet measures a hit in a cache of 10,000 entries, the
// second audit of an unchanged repository of 10,000 skills.
func BenchmarkCacheGet(b *testing.B) {
	const entries = 10000
	c := &Cache{Dir: b.TempDir()}
	policy := PolicyHash(nil, nil)
	clean := withRisk(&Report{Findings: []Finding{}, Files: 3, Bytes: 4096})
	for i := range entries {
		r := clean
		if i%10 == 0 { // one skill in ten has findings
			r = cachedReport()
		}
		if err := c.Put(fmt.Sprintf("%040x", i), policy, "", r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, ok := c.Get(fmt.Sprintf("%040x", i%entries), policy, ""); !ok {
			b.Fatal("miss")
		}
		i++
	}
}

// TestCacheRoundTripScanned stores what the engine really reports and
// reads it back unchanged.
func TestCacheRoundTripScanned(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	for _, s := range scannedSkills(t) {
		t.Run(s.Name, func(t *testing.T) {
			mustDo(t, c.Put(s.Name, "p", "", s.Report))
			got, ok := c.Get(s.Name, "p", "")
			if !ok {
				t.Fatal("miss after Put")
			}
			if diff := cmp.Diff(s.Report, got); diff != "" {
				t.Errorf("cached report (-scanned +cached):\n%s", diff)
			}
		})
	}
}

func FuzzCacheEntry(f *testing.F) {
	key := newCacheKey("tree", "policy", "base")
	f.Add(encodeCacheEntry(key, cachedReport()))
	f.Add(encodeCacheEntry(key, &Report{}))
	f.Add([]byte(cacheMagic + "\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := decodeCacheEntry(data, key)
		if err != nil {
			return
		}
		// Whatever decodes is a valid report that survives another trip.
		again, err := decodeCacheEntry(encodeCacheEntry(key, r), key)
		if err != nil || !validReport(r) || !cmp.Equal(r, again) {
			t.Fatalf("entry %q decodes to %+v, which does not round-trip: %v", data, r, err)
		}
	})
}
