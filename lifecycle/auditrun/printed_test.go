package auditrun_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
)

// printAudit audits as req asks and prints the report in format f; it returns what was
// printed and the result.
func printAudit(t *testing.T, req auditrun.Request, f audit.Format) (string, *auditrun.Result) {
	t.Helper()
	var out bytes.Buffer
	req.Print = &auditrun.Print{Out: &out, Format: f, Version: "v0.0.1"}
	run := mustAudit(t, req)
	return out.String(), run
}

// TestAuditRevPrintedReport checks that the report of `audit --rev REV` is printed from the
// cache when nothing changed: the same bytes and verdict as an audit without the cache, and no
// skill's report read. A changed folder or policy, another format or a damaged entry is
// printed anew.
func TestAuditRevPrintedReport(t *testing.T) {
	repo := publishedRepo(t)
	dir := auditCacheDir(t, repo)
	req := auditrun.Request{Dir: repo, Rev: "main"}
	noCache := req
	noCache.NoCache = true
	want, fresh := printAudit(t, noCache, audit.FormatText)
	first, _ := printAudit(t, req, audit.FormatText)
	if first != want {
		t.Fatalf("first printed report differs from one without the cache:\n%s\nwant:\n%s", first, want)
	}

	t.Run("served from the cache", func(t *testing.T) {
		// Without the whole result and the per-skill reports, only the printed entry can
		// print the report.
		removeAllBut(t, dir, "printed")
		got, run := printAudit(t, req, audit.FormatText)
		if got != want || run.Verdict != fresh.Verdict || run.Reports != nil {
			t.Errorf("printed from the cache: verdict %v, %d reports read, report:\n%s\nwant verdict %v, none read, report:\n%s",
				run.Verdict, len(run.Reports), got, fresh.Verdict, want)
		}
	})
	t.Run("another format is printed anew", func(t *testing.T) {
		wantJSON, _ := printAudit(t, noCache, audit.FormatJSON)
		if got, run := printAudit(t, req, audit.FormatJSON); got != wantJSON || run.Reports == nil {
			t.Errorf("JSON report after a text one: %d reports read, report:\n%s\nwant:\n%s", len(run.Reports), got, wantJSON)
		}
	})
	t.Run("a damaged entry is printed anew", func(t *testing.T) {
		for p := range testenv.FileInfos(t, dir) {
			if filepath.Base(filepath.Dir(p)) == "printed" {
				if err := os.WriteFile(p, []byte("SGAP damaged"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
		}
		if got, run := printAudit(t, req, audit.FormatText); got != want || run.Reports == nil {
			t.Errorf("printed over a damaged entry: %d reports read, report:\n%s\nwant:\n%s", len(run.Reports), got, want)
		}
	})
	t.Run("a changed folder is printed anew", func(t *testing.T) {
		testenv.WriteFiles(t, repo, map[string]string{"skills/beta/SKILL.md": testenv.SkillMD("beta", evilLine)})
		testenv.CommitAll(t, repo, "beta turns bad")
		wantNow, _ := printAudit(t, noCache, audit.FormatText)
		if wantNow == want {
			t.Fatalf("the change did not change the report; the test checks nothing:\n%s", wantNow)
		}
		// Only beta is audited again; the rest of the report is the one printed before.
		if got, run := printAudit(t, req, audit.FormatText); got != wantNow || run.Reports != nil {
			t.Errorf("printed after a change, %d reports read:\n%s\nwant none read, and:\n%s", len(run.Reports), got, wantNow)
		}
		if got, run := printAudit(t, req, audit.FormatText); got != wantNow || run.Reports != nil {
			t.Errorf("printed again after a change, %d reports read:\n%s\nwant none read, and:\n%s", len(run.Reports), got, wantNow)
		}
	})
	t.Run("a skill in a category changed, and one added", func(t *testing.T) {
		testenv.WriteFiles(t, repo, map[string]string{
			"skills/cat/gamma/SKILL.md": testenv.SkillMD("gamma", cleanLine),
			"skills/cat/delta/SKILL.md": testenv.SkillMD("delta", mediumLine),
		})
		testenv.CommitAll(t, repo, "gamma cleaned, delta added")
		wantNow, _ := printAudit(t, noCache, audit.FormatText)
		if got, run := printAudit(t, req, audit.FormatText); got != wantNow || run.Reports != nil {
			t.Errorf("printed after a change, %d reports read:\n%s\nwant none read, and:\n%s", len(run.Reports), got, wantNow)
		}
	})
	t.Run("a skill removed", func(t *testing.T) {
		if err := os.RemoveAll(filepath.Join(repo, "skills", "alpha")); err != nil {
			t.Fatal(err)
		}
		testenv.CommitAll(t, repo, "alpha removed")
		wantNow, _ := printAudit(t, noCache, audit.FormatText)
		if got, run := printAudit(t, req, audit.FormatText); got != wantNow || run.Reports != nil {
			t.Errorf("printed after a removal, %d reports read:\n%s\nwant none read, and:\n%s", len(run.Reports), got, wantNow)
		}
		wantJSON, _ := printAudit(t, noCache, audit.FormatJSON)
		if got, _ := printAudit(t, req, audit.FormatJSON); got != wantJSON {
			t.Errorf("JSON after a removal:\n%s\nwant:\n%s", got, wantJSON)
		}
	})
	t.Run("a changed policy is printed anew", func(t *testing.T) {
		before, _ := printAudit(t, req, audit.FormatText)
		testenv.WriteFiles(t, repo, map[string]string{".skillgit.yaml": "audit:\n  fail_on: medium\n"})
		testenv.CommitAll(t, repo, "block at medium")
		wantNow, run := printAudit(t, noCache, audit.FormatText)
		if wantNow == before {
			t.Fatal("the policy change did not change the report; the test checks nothing")
		}
		if got, _ := printAudit(t, req, audit.FormatText); got != wantNow {
			t.Errorf("printed after a policy change (verdict %v):\n%s\nwant:\n%s", run.Verdict, got, wantNow)
		}
	})
}

// removeAllBut removes every entry of the audit cache dir but those in subfolder keep.
func removeAllBut(t *testing.T, dir, keep string) {
	t.Helper()
	for p := range testenv.FileInfos(t, dir) {
		if filepath.Base(filepath.Dir(p)) != keep {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
		}
	}
}
