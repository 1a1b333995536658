package audit

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestCacheLatestAll checks that LatestAll finds the whole result last stored or used for a
// folder under a policy, of whatever tree, and passes over other folders, other policies and
// damaged entries.
func TestCacheLatestAll(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	policy := PolicyHash(nil, nil)
	other := PolicyHash(nil, []string{"https://get.example.dev/i.sh"})
	if _, ok := c.LatestAll("skills", policy); ok {
		t.Fatal("LatestAll found a result in an empty cache")
	}
	skills := goldenSkills()
	base := time.Now().Add(-2 * time.Hour)
	store := func(root, folder, policy string, reports []SkillReport, age int) string {
		t.Helper()
		mustDo(t, c.PutAll(root, folder, policy, reports))
		file := c.allFile(allKey{root: root, folder: folder, policy: policy, ruleset: rulesetKey()})
		when := base.Add(time.Duration(age) * time.Minute)
		mustDo(t, os.Chtimes(file, when, when))
		return file
	}
	store("old", "skills", policy, skills[:1], 1)
	newest := store("new", "skills", policy, skills, 2)
	store("elsewhere", "agents/skills", policy, skills[:1], 3)
	store("other-policy", "skills", other, skills[:1], 4)

	got, ok := c.LatestAll("skills", policy)
	if !ok || got.Root != "new" {
		t.Fatalf("LatestAll = %+v, %v; want the newest entry of the folder and policy, new", got, ok)
	}
	if diff := cmp.Diff(skills, got.Reports); diff != "" {
		t.Errorf("reports of the latest result (-want +got):\n%s", diff)
	}
	if res, ok := c.LatestAll("agents/skills", policy); !ok || res.Root != "elsewhere" {
		t.Errorf("LatestAll of agents/skills = %+v, %v; want elsewhere", res, ok)
	}

	data, err := os.ReadFile(newest)
	mustDo(t, err)
	data[len(data)/2] ^= 0x40
	mustDo(t, os.WriteFile(newest, data, 0o600))
	mustDo(t, os.Chtimes(newest, base.Add(5*time.Minute), base.Add(5*time.Minute)))
	if res, ok := c.LatestAll("skills", policy); !ok || res.Root != "old" {
		t.Errorf("LatestAll over a damaged newest entry = %+v, %v; want the older one, old", res, ok)
	}
	mustDo(t, os.RemoveAll(filepath.Join(c.Dir, allFolder)))
	if _, ok := c.LatestAll("skills", policy); ok {
		t.Error("LatestAll found a result after the whole results were removed")
	}
}

// TestCachePutAllSince checks that a whole result stored from an earlier one, keeping some of
// its reports, replacing one, adding one and leaving one out, reads back as given, and that
// the kept reports are stored as the earlier entry held them, not encoded again.
func TestCachePutAllSince(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	policy := PolicyHash(nil, nil)
	skills := goldenSkills()
	slices.SortFunc(skills, func(a, b SkillReport) int { return strings.Compare(a.Path, b.Path) })
	mustDo(t, c.PutAll("old", "skills", policy, skills))
	prev, ok := c.LatestAll("skills", policy)
	if !ok {
		t.Fatal("LatestAll missed the stored result")
	}
	changed := *prev.Reports[1].Report
	changed.Files++
	next := []SkillReport{{Name: "aaa", Path: "skills/aaa", Report: withRisk(&Report{Findings: []Finding{}})}, prev.Reports[0]}
	next = append(next, SkillReport{Name: prev.Reports[1].Name, Path: prev.Reports[1].Path, Report: &changed})
	next = append(next, prev.Reports[3:]...)
	want := slices.Clone(next)
	// A kept report changed in memory is still stored as the earlier entry held it: that
	// shows it was copied, not encoded again.
	next[1].Report.Files += 100
	mustDo(t, c.PutAllSince("new", "skills", policy, next, prev))
	got, ok := c.GetAll("new", "skills", policy)
	if !ok {
		t.Fatal("GetAll missed the result stored since the earlier one")
	}
	want[1].Report = skills[0].Report
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reports stored since the earlier result (-want +got):\n%s", diff)
	}
}
