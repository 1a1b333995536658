package auditrun_test

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
)

// planted marks the reports a test stores as an earlier whole result: a report taken from
// that result, not audited again, still carries it.
const planted = 999

// deltaRepo creates a repository with skills at the top of the skills folder and in category
// folders, and audits its publish branch once, so the cache holds the whole result.
func deltaRepo(t *testing.T) (repo string, first *auditrun.Result) {
	t.Helper()
	repo = newRepo(t)
	testenv.WriteFiles(t, repo, map[string]string{
		"skills/alpha/SKILL.md":       testenv.SkillMD("alpha", evilLine),
		"skills/beta/SKILL.md":        testenv.SkillMD("beta", cleanLine),
		"skills/cat/gamma/SKILL.md":   testenv.SkillMD("gamma", mediumLine),
		"skills/cat/delta/SKILL.md":   testenv.SkillMD("delta", cleanLine),
		"skills/other/eps/SKILL.md":   testenv.SkillMD("eps", cleanLine),
		"skills/omega/SKILL.md":       testenv.SkillMD("omega", cleanLine),
		"skills/omega/inner/SKILL.md": testenv.SkillMD("inner", evilLine),
	})
	testenv.CommitAll(t, repo, "publish")
	return repo, mustAudit(t, auditrun.Request{Dir: repo, Rev: "main"})
}

// change changes the skills of a deltaRepo: beta and omega/inner change, cat/delta and the
// category other go, cat/zeta and the category fresh come, and omega stops being a skill, so
// that its folder becomes a category whose skill inner is found. alpha and cat/gamma stay.
func change(t *testing.T, repo string) {
	t.Helper()
	testenv.WriteFiles(t, repo, map[string]string{
		"skills/beta/SKILL.md":        testenv.SkillMD("beta", evilLine),
		"skills/cat/zeta/SKILL.md":    testenv.SkillMD("zeta", otherLine),
		"skills/fresh/eta/SKILL.md":   testenv.SkillMD("eta", mediumLine),
		"skills/omega/inner/SKILL.md": testenv.SkillMD("inner", otherLine),
	})
	for _, p := range []string{"skills/cat/delta", "skills/other", "skills/omega/SKILL.md"} {
		if err := os.RemoveAll(repo + "/" + p); err != nil {
			t.Fatal(err)
		}
	}
	testenv.CommitAll(t, repo, "change")
}

// plant replaces the whole result the cache holds for the publish branch's skills folder with
// the same reports marked as planted.
func plant(t *testing.T, repo string, run *auditrun.Result) {
	t.Helper()
	c := lifecycletest.Open(t, repo).AuditRunner().Cache()
	tree := revParse(t, repo, "main:skills").String()
	reports := make([]audit.SkillReport, len(run.Reports))
	for i, r := range run.Reports {
		rep := *r.Report
		rep.Files = planted
		reports[i] = r
		reports[i].Report = &rep
	}
	if err := c.PutAll(tree, "skills", run.Policy.Hash(), reports); err != nil {
		t.Fatal(err)
	}
}

// TestAuditRevSince checks that `audit --rev` of a changed skills folder takes the skills whose
// trees stayed the same from the whole result of the folder before the change, audits the
// changed and the added ones, leaves out the removed ones, and comes to what a full audit
// does.
func TestAuditRevSince(t *testing.T) {
	hermetic(t)
	repo, first := deltaRepo(t)
	if got, want := reportPaths(first), []string{"skills/alpha", "skills/beta", "skills/cat/delta", "skills/cat/gamma", "skills/omega", "skills/other/eps"}; !cmp.Equal(got, want) {
		t.Fatalf("skills before the change: %q, want %q", got, want)
	}
	plant(t, repo, first)
	change(t, repo)
	req := auditrun.Request{Dir: repo, Rev: "main"}
	run := mustAudit(t, req)
	full := mustAudit(t, auditrun.Request{Dir: repo, Rev: "main", NoCache: true})
	if got, want := reportPaths(run), reportPaths(full); !cmp.Equal(got, want) {
		t.Fatalf("skills after the change: %q, a full audit lists %q", got, want)
	}
	reused := map[string]bool{"skills/alpha": true, "skills/cat/gamma": true}
	for i, r := range run.Reports {
		if got := r.Report.Files == planted; got != reused[r.Path] {
			t.Errorf("%s: taken from the earlier result %v, want %v", r.Path, got, reused[r.Path])
		}
		if !reused[r.Path] {
			if diff := cmp.Diff(full.Reports[i], r); diff != "" {
				t.Errorf("%s audited after the change (-full +got):\n%s", r.Path, diff)
			}
		}
	}
	if again := mustAudit(t, req); !cmp.Equal(run.Reports, again.Reports) {
		t.Error("the result after the change was not stored whole")
	}
}

// TestAuditRevSinceSameAsFull checks that a skills folder audited from its earlier whole result
// comes to the very result of a full audit, the verdict included.
func TestAuditRevSinceSameAsFull(t *testing.T) {
	hermetic(t)
	repo, _ := deltaRepo(t)
	change(t, repo)
	run := mustAudit(t, auditrun.Request{Dir: repo, Rev: "main"})
	full := mustAudit(t, auditrun.Request{Dir: repo, Rev: "main", NoCache: true})
	if diff := cmp.Diff(full, run); diff != "" {
		t.Errorf("audit from the earlier result (-full +got):\n%s", diff)
	}
}

// TestAuditRevSinceDamaged checks that a damaged earlier whole result is not used: the changed
// folder is audited whole.
func TestAuditRevSinceDamaged(t *testing.T) {
	hermetic(t)
	repo, first := deltaRepo(t)
	plant(t, repo, first)
	entries := wholeEntries(t, auditCacheDir(t, repo))
	if len(entries) != 1 {
		t.Fatalf("%d whole-result entries, want 1", len(entries))
	}
	data, err := os.ReadFile(entries[0])
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-40] ^= 0x04
	if err := os.WriteFile(entries[0], data, 0o600); err != nil {
		t.Fatal(err)
	}
	change(t, repo)
	run := mustAudit(t, auditrun.Request{Dir: repo, Rev: "main"})
	for _, r := range run.Reports {
		if r.Report.Files == planted {
			t.Errorf("%s was taken from a damaged whole result", r.Path)
		}
	}
	full := mustAudit(t, auditrun.Request{Dir: repo, Rev: "main", NoCache: true})
	if diff := cmp.Diff(full, run); diff != "" {
		t.Errorf("audit over a damaged earlier result (-full +got):\n%s", diff)
	}
}
