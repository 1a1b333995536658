package audit

import (
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// manySkills returns n reports of the golden skills under distinct paths, in path order.
func manySkills(n int) []SkillReport {
	one := goldenSkills()
	out := make([]SkillReport, n)
	for i := range out {
		s := one[i%len(one)]
		s.Name = fmt.Sprintf("skill-%03d", i)
		s.Path = "skills/" + s.Name
		out[i] = s
	}
	return out
}

// againWith returns the reports of prev with the one at i audited again, the one at gone left
// out, and a new skill added at path.
func againWith(prev []SkillReport, i, gone int, path string) []SkillReport {
	next := slices.Clone(prev)
	again := *next[i].Report
	again.Files++
	next[i].Report = &again
	next = slices.Delete(next, gone, gone+1)
	added := SkillReport{Name: "added", Path: path, Report: withRisk(&Report{Findings: []Finding{}})}
	at, _ := slices.BinarySearchFunc(next, added, byPath)
	return slices.Insert(next, at, added)
}

// storedAs reads the magic of the result of root in c.
func storedAs(t *testing.T, c *Cache, root string) string {
	t.Helper()
	data, err := os.ReadFile(c.allFile(allKey{root: root, folder: "skills", policy: PolicyHash(nil, nil), ruleset: rulesetKey()}))
	mustDo(t, err)
	return string(data[:len(allMagic)])
}

// latest returns the latest result of skills under the default policy.
func latest(t *testing.T, c *Cache) *AllResult {
	t.Helper()
	prev, ok := c.LatestAll("skills", PolicyHash(nil, nil))
	if !ok {
		t.Fatal("LatestAll missed the stored result")
	}
	return prev
}

// baseOf names the result res is a change to; "" when it is stored whole.
func baseOf(res *AllResult) string {
	if res.base == nil {
		return ""
	}
	return res.base.Root
}

// TestCacheAllChange checks that a result keeping most reports of the one before is stored as
// a change to the whole result, that a change of a change is still a change to that whole
// result, that each reads back as given, and that none reads without its base.
func TestCacheAllChange(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	policy := PolicyHash(nil, nil)
	mustDo(t, c.PutAll("r1", "skills", policy, manySkills(80)))
	prev := latest(t, c)
	r2 := againWith(prev.Reports, 10, 5, "skills/skill-020-b")
	mustDo(t, c.PutAllSince("r2", "skills", policy, r2, prev))
	prev = latest(t, c)
	r3 := againWith(prev.Reports, 30, 0, "skills/zz")
	mustDo(t, c.PutAllSince("r3", "skills", policy, r3, prev))

	for _, tt := range []struct {
		root, magic string
		want        []SkillReport
	}{{"r1", allMagic, manySkills(80)}, {"r2", changeMagic, r2}, {"r3", changeMagic, r3}} {
		if got := storedAs(t, c, tt.root); got != tt.magic {
			t.Errorf("%s is stored as %q, want %q", tt.root, got, tt.magic)
		}
		got, ok := c.GetAll(tt.root, "skills", policy)
		if !ok {
			t.Fatalf("GetAll(%s) missed", tt.root)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("reports of %s (-want +got):\n%s", tt.root, diff)
		}
	}
	if got := latest(t, c); got.Root != "r3" || baseOf(got) != "r1" {
		t.Errorf("latest result %s is a change to %q, want r3 a change to r1", got.Root, baseOf(got))
	}
	mustDo(t, os.Remove(c.allFile(allKey{root: "r1", folder: "skills", policy: policy, ruleset: rulesetKey()})))
	for _, root := range []string{"r2", "r3"} {
		if _, ok := c.GetAll(root, "skills", policy); ok {
			t.Errorf("GetAll(%s) hit without the result it changes", root)
		}
	}
}

// TestCacheAllChangeTooLarge checks that a result that changes more than one skill in
// changeShare of the one before is stored whole.
func TestCacheAllChangeTooLarge(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	policy := PolicyHash(nil, nil)
	mustDo(t, c.PutAll("r1", "skills", policy, manySkills(40)))
	prev := latest(t, c)
	next := prev.Reports
	for i := range 40/changeShare + 1 {
		next = againWith(next, i, 30-i, fmt.Sprintf("skills/zz-%d", i))
	}
	mustDo(t, c.PutAllSince("r2", "skills", policy, next, prev))
	if got := storedAs(t, c, "r2"); got != allMagic {
		t.Errorf("a large change is stored as %q, want whole, %q", got, allMagic)
	}
	got, ok := c.GetAll("r2", "skills", policy)
	if !ok {
		t.Fatal("GetAll missed the result stored whole")
	}
	if diff := cmp.Diff(next, got); diff != "" {
		t.Errorf("reports (-want +got):\n%s", diff)
	}
}

// TestCacheAllChangeCorrupt checks that a damaged change, one stored under another key, one to
// a change, one to an unordered result and one with unordered paths all read as misses.
func TestCacheAllChangeCorrupt(t *testing.T) {
	policy := PolicyHash(nil, nil)
	k := allKey{root: "r2", folder: "skills", policy: policy, ruleset: rulesetKey()}
	good, err := encodeChange(k, "r1", []string{"skills/skill-003"}, manySkills(2)[1:], nil)
	mustDo(t, err)
	flipped := slices.Clone(good)
	flipped[len(flipped)/2] ^= 0x20
	otherKey, err := encodeChange(allKey{root: "other", folder: "skills", policy: policy, ruleset: rulesetKey()}, "r1", nil, nil, nil)
	mustDo(t, err)
	toChange, err := encodeChange(k, "r1-changed", nil, nil, nil)
	mustDo(t, err)
	unordered, err := encodeChange(k, "r1", []string{"skills/skill-009", "skills/skill-003"}, nil, nil)
	mustDo(t, err)
	var paths []string
	for _, s := range manySkills(41) {
		paths = append(paths, s.Path)
	}
	tooMany, err := encodeChange(k, "r1", paths, nil, nil)
	mustDo(t, err)
	tests := []struct {
		name string
		data []byte
		// reversed stores the base out of path order.
		reversed bool
		hit      bool
	}{
		{"the good change", good, false, true},
		{"flipped bit", flipped, false, false},
		{"cut short", good[:len(good)-6], false, false},
		{"other key inside", otherKey, false, false},
		{"a change to a change", toChange, false, false},
		{"unordered paths left out", unordered, false, false},
		{"more paths left out than the base holds", tooMany, false, false},
		{"a change to an unordered result", good, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Cache{Dir: t.TempDir()}
			mustDo(t, c.PutAll("r1", "skills", policy, manySkills(40)))
			prev := latest(t, c)
			mustDo(t, c.PutAllSince("r1-changed", "skills", policy, againWith(prev.Reports, 1, 2, "skills/x"), prev))
			if got := storedAs(t, c, "r1-changed"); got != changeMagic {
				t.Fatalf("r1-changed is stored as %q, want a change", got)
			}
			if tt.reversed {
				reports := manySkills(40)
				slices.Reverse(reports)
				mustDo(t, c.PutAll("r1", "skills", policy, reports))
			}
			mustDo(t, writeAtomic(c.allFile(k), tt.data))
			if _, ok := c.GetAll("r2", "skills", policy); ok != tt.hit {
				t.Errorf("GetAll hit = %v, want %v", ok, tt.hit)
			}
		})
	}
}

// TestCacheAllChangeKeepsBase checks that storing more changes than the cache keeps results
// leaves their base in place, so that the latest still reads.
func TestCacheAllChangeKeepsBase(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	policy := PolicyHash(nil, nil)
	mustDo(t, c.PutAll("r0", "skills", policy, manySkills(400)))
	var want []SkillReport
	for i := range maxAllEntries + 3 {
		prev := latest(t, c)
		want = againWith(prev.Reports, i, 100+i, fmt.Sprintf("skills/zz-%d", i))
		mustDo(t, c.PutAllSince(fmt.Sprintf("r%d", i+1), "skills", policy, want, prev))
	}
	root := fmt.Sprintf("r%d", maxAllEntries+3)
	got, ok := c.GetAll(root, "skills", policy)
	if !ok {
		t.Fatalf("GetAll(%s) missed after %d changes", root, maxAllEntries+3)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reports (-want +got):\n%s", diff)
	}
	if got := latest(t, c); got.Root != root || baseOf(got) != "r0" {
		t.Errorf("latest result %s is a change to %q, want %s a change to r0", got.Root, baseOf(got), root)
	}
}

// TestCacheAllChangeMarkedAfterBase checks that reading an old change renews its base and then
// the change, so that the base is kept and the change stays the latest result.
func TestCacheAllChangeMarkedAfterBase(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	policy := PolicyHash(nil, nil)
	mustDo(t, c.PutAll("r0", "skills", policy, manySkills(40)))
	prev := latest(t, c)
	mustDo(t, c.PutAllSince("r1", "skills", policy, againWith(prev.Reports, 1, 2, "skills/x"), prev))
	old := time.Now().Add(-2 * touchAfter)
	for _, root := range []string{"r1", "r0"} {
		mustDo(t, os.Chtimes(c.allFile(allKey{root: root, folder: "skills", policy: policy, ruleset: rulesetKey()}), old, old))
	}
	if _, ok := c.GetAll("r1", "skills", policy); !ok {
		t.Fatal("GetAll missed the change")
	}
	for _, root := range []string{"r0", "r1"} {
		fi, err := os.Stat(c.allFile(allKey{root: root, folder: "skills", policy: policy, ruleset: rulesetKey()}))
		mustDo(t, err)
		if fi.ModTime().Before(old.Add(touchAfter)) {
			t.Errorf("%s was not marked used", root)
		}
	}
	if got := latest(t, c); got.Root != "r1" {
		t.Errorf("latest result is %s, want the change r1", got.Root)
	}
}
