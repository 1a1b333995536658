package auditrun

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

func TestAuditorRunKeepsOrder(t *testing.T) {
	testenv.Hermetic(t, nil)
	items, want := orderItems(t, 9)
	var runs [][]audit.SkillReport
	for _, workers := range []int{1, 4} {
		a := &Auditor{Policy: policy.DefaultAuditPolicy(), Workers: workers}
		got, err := a.Run(items)
		if err != nil {
			t.Fatal(err)
		}
		var counts []int
		for _, r := range got {
			n := 0
			for _, f := range r.Report.Findings {
				n += f.Count
			}
			counts = append(counts, n)
		}
		if diff := cmp.Diff(want, counts); diff != "" {
			t.Errorf("workers %d: findings per report in item order (-want +got):\n%s", workers, diff)
		}
		runs = append(runs, got)
	}
	if diff := cmp.Diff(runs[0], runs[1]); diff != "" {
		t.Errorf("reports (-1 worker +4 workers):\n%s", diff)
	}
}

func TestAuditorRunError(t *testing.T) {
	testenv.Hermetic(t, nil)
	items, _ := orderItems(t, 3)
	items[1].Dir, items[1].Path = filepath.Join(t.TempDir(), "gone"), "skills/gone"
	_, err := (&Auditor{Policy: policy.DefaultAuditPolicy(), Workers: 2}).Run(items)
	if err == nil || !strings.Contains(err.Error(), "skills/gone") {
		t.Errorf("error %v; want one naming skills/gone", err)
	}
}

// orderItems makes n skill folders, the one at index i with n-i findings, and returns them in
// that order with the number of findings each must have.
func orderItems(t *testing.T, n int) ([]Item, []int) {
	t.Helper()
	root := t.TempDir()
	var items []Item
	var counts []int
	for i := range n {
		name := "s" + string(rune('a'+i))
		var lines []string
		for j := range n - i {
			lines = append(lines, "Then `sudo tool"+string(rune('a'+j))+" --now`.")
		}
		testenv.WriteFiles(t, root, map[string]string{name + "/SKILL.md": testenv.SkillMD(name, lines...)})
		items = append(items, Item{Name: name, Path: name, Dir: filepath.Join(root, name)})
		counts = append(counts, n-i)
	}
	return items, counts
}
