package audit

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestCacheAllRoundTrip(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	policy := PolicyHash(nil, nil)
	want := goldenSkills()
	want = append(want, SkillReport{Name: "empty", Path: "skills/empty", Report: withRisk(&Report{Findings: []Finding{}})})
	mustDo(t, c.PutAll("root-1", "skills", policy, want))
	got, ok := c.GetAll("root-1", "skills", policy)
	if !ok {
		t.Fatal("GetAll missed a stored entry")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cached reports (-want +got):\n%s", diff)
	}
	misses := []struct{ name, root, folder, policy string }{
		{"other tree", "root-2", "skills", policy},
		{"other folder", "root-1", "agents/skills", policy},
		{"other policy", "root-1", "skills", PolicyHash(nil, []string{"https://get.example.dev/i.sh"})},
		{"no tree", "", "skills", policy},
	}
	for _, m := range misses {
		if _, ok := c.GetAll(m.root, m.folder, m.policy); ok {
			t.Errorf("%s: GetAll hit", m.name)
		}
	}
}

func TestCacheAllCorrupt(t *testing.T) {
	policy := PolicyHash(nil, nil)
	k := allKey{root: "root", folder: "skills", policy: policy, ruleset: rulesetKey()}
	good, err := encodeAllEntry(k, goldenSkills(), nil)
	mustDo(t, err)
	flipped := slices.Clone(good)
	flipped[len(flipped)/2] ^= 0x20
	otherKey, err := encodeAllEntry(allKey{root: "other", folder: "skills", policy: policy, ruleset: rulesetKey()}, goldenSkills(), nil)
	mustDo(t, err)
	tests := []struct {
		name string
		data []byte
	}{
		{"garbage", []byte("not an entry at all")},
		{"empty", nil},
		{"cut short", good[:len(good)/2]},
		{"flipped bit", flipped},
		{"trailing bytes", append(slices.Clone(good), 0)},
		{"other key inside", otherKey},
		{"other format", resum(func(b []byte) { b[len(allMagic)]++ }, good)},
		{"a skill's report cut short, outer checksum right", withSkillReport(k, func(r []byte) []byte { return r[:len(r)-3] })},
		{"a skill's report with a risk its findings do not have, outer checksum right", withSkillReport(k, func(r []byte) []byte { r[0] = byte(RiskLow); return r })},
		{"a skill's report with bytes after it, outer checksum right", withSkillReport(k, func(r []byte) []byte { return append(r, 0) })},
		{"a per-skill entry", encodeCacheEntry(newCacheKey("root", policy, ""), cachedReport())},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Cache{Dir: t.TempDir()}
			file := c.allFile(k)
			mustDo(t, os.MkdirAll(filepath.Dir(file), 0o700))
			mustDo(t, os.WriteFile(file, tt.data, 0o600))
			if r, ok := c.GetAll("root", "skills", policy); ok {
				t.Errorf("corrupt entry was a hit: %+v", r)
			}
			mustDo(t, c.PutAll("root", "skills", policy, goldenSkills()))
			if _, ok := c.GetAll("root", "skills", policy); !ok {
				t.Error("PutAll did not replace the corrupt entry")
			}
		})
	}
}

// TestCacheAllBounded checks that storing whole results keeps only the most recently used few.
func TestCacheAllBounded(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	policy := PolicyHash(nil, nil)
	old := time.Now().Add(-3 * time.Hour)
	for i := range maxAllEntries + 3 {
		root := string(rune('a' + i))
		mustDo(t, c.PutAll(root, "skills", policy, goldenSkills()[:1]))
		file := c.allFile(allKey{root: root, folder: "skills", policy: policy, ruleset: rulesetKey()})
		mustDo(t, os.Chtimes(file, old.Add(time.Duration(i)*time.Minute), old.Add(time.Duration(i)*time.Minute)))
		if i == 0 {
			continue
		}
		// Reading the first entry keeps it recent, so it survives.
		if _, ok := c.GetAll("a", "skills", policy); !ok {
			t.Fatalf("entry a was dropped after %d stores", i+1)
		}
	}
	entries, err := os.ReadDir(filepath.Join(c.Dir, allFolder))
	mustDo(t, err)
	if len(entries) != maxAllEntries {
		t.Errorf("%d whole-result entries kept, want %d", len(entries), maxAllEntries)
	}
	if _, ok := c.GetAll("b", "skills", policy); ok {
		t.Error("the least recently used entry b was kept")
	}
}

func TestCacheAllPutErrors(t *testing.T) {
	policy := PolicyHash(nil, nil)
	if err := (&Cache{}).PutAll("root", "skills", policy, goldenSkills()); err == nil {
		t.Error("PutAll without a folder succeeded")
	}
	c := &Cache{Dir: t.TempDir()}
	if err := c.PutAll("", "skills", policy, goldenSkills()); err == nil {
		t.Error("PutAll without a tree id succeeded")
	}
	if err := c.PutAll("root", "skills", policy, []SkillReport{{Name: "x", Path: "skills/x"}}); err == nil {
		t.Error("PutAll of a skill without a report succeeded")
	}
}

func BenchmarkCacheGetAll(b *testing.B) {
	c := &Cache{Dir: b.TempDir()}
	policy := PolicyHash(nil, nil)
	one := goldenSkills()
	reports := make([]SkillReport, 0, 10_000)
	for i := range cap(reports) {
		s := one[i%len(one)]
		s.Path = s.Path + "-" + string(rune('a'+i%26))
		reports = append(reports, s)
	}
	if err := c.PutAll("root", "skills", policy, reports); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := c.GetAll("root", "skills", policy); !ok {
			b.Fatal("miss")
		}
	}
}

// withSkillReport returns a whole-result entry of k holding the first golden skill, its report
// bytes changed by edit, under a right checksum: only the report's own checks can refuse it.
func withSkillReport(k allKey, edit func([]byte) []byte) []byte {
	s := goldenSkills()[0]
	b := appendAllHead(nil, allMagic, k)
	b = binary.AppendUvarint(b, 1)
	b = appendString(appendString(appendString(b, s.Name), s.Path), s.Base)
	b = appendString(b, string(edit(appendReport(nil, s.Report))))
	return withChecksum(b)
}
