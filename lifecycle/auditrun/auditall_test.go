package auditrun_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
)

// TestAuditRevWholeResult checks the whole-result cache of `audit --rev REV`: a repeat audit
// of an unchanged skills folder is served from one entry without the per-skill ones, a
// damaged entry is a miss that is rewritten, and a changed folder is audited anew.
func TestAuditRevWholeResult(t *testing.T) {
	repo := publishedRepo(t)
	dir := auditCacheDir(t, repo)
	req := auditrun.Request{Dir: repo, Rev: "main"}
	first := mustAudit(t, req)
	whole := wholeEntries(t, dir)
	if len(whole) != 1 {
		t.Fatalf("%d whole-result entries after one audit; want 1", len(whole))
	}

	t.Run("served without the per-skill entries", func(t *testing.T) {
		removePerSkill(t, dir)
		if diff := cmp.Diff(first, mustAudit(t, req)); diff != "" {
			t.Errorf("run from the whole result (-first +got):\n%s", diff)
		}
		if n := len(testenv.FileInfos(t, dir)); n != 1 {
			t.Errorf("%d cache entries after a whole-result hit; want only the whole result", n)
		}
	})
	t.Run("damaged entry is a miss and is rewritten", func(t *testing.T) {
		if err := os.WriteFile(whole[0], []byte("SGAW damaged"), 0o600); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(first, mustAudit(t, req)); diff != "" {
			t.Errorf("run over a damaged entry (-first +got):\n%s", diff)
		}
		if data, err := os.ReadFile(whole[0]); err != nil || len(data) < 100 {
			t.Errorf("damaged whole-result entry not rewritten: %d bytes, %v", len(data), err)
		}
	})
	t.Run("changed folder is audited anew", func(t *testing.T) {
		testenv.WriteFiles(t, repo, map[string]string{"skills/beta/SKILL.md": testenv.SkillMD("beta", evilLine)})
		testenv.CommitAll(t, repo, "beta turns bad")
		run := mustAudit(t, req)
		if len(wholeEntries(t, dir)) != 2 {
			t.Errorf("want a second whole-result entry for the new skills folder")
		}
		if got := run.Reports[1].Report.Risk; got == first.Reports[1].Report.Risk {
			t.Errorf("beta after the change: risk %v, the same as before", got)
		}
	})
}

// wholeEntries lists the whole-result entries of the audit cache dir.
func wholeEntries(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for p := range testenv.FileInfos(t, dir) {
		if filepath.Base(filepath.Dir(p)) == "all" && !strings.HasPrefix(filepath.Base(p), ".tmp-") {
			out = append(out, p)
		}
	}
	return out
}

// removePerSkill removes every cache entry but the whole results.
func removePerSkill(t *testing.T, dir string) {
	t.Helper()
	for p := range testenv.FileInfos(t, dir) {
		if filepath.Base(filepath.Dir(p)) != "all" {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
		}
	}
}
