package auditrun_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// TestAuditUnreadableObject checks that auditing a skill version whose object git cannot read
// fails, naming the object and `git fsck`, instead of caching a high-risk "not audited"
// report that would outlive the repair.
func TestAuditUnreadableObject(t *testing.T) {
	dir := newRepo(t)
	testenv.WriteFiles(t, dir, map[string]string{
		"skills/alpha/SKILL.md":  testenv.SkillMD("alpha", cleanLine),
		"skills/alpha/notes.md":  "Some notes about dates.\n",
		"skills/alpha/script.sh": "date\n",
	})
	testenv.CommitAll(t, dir, "one skill")
	id, restore := hideObject(t, dir, "skills/alpha/notes.md")
	r := lifecycletest.Open(t, dir)
	tree, err := ledger.FolderAt(ledger.StoreOf(r.Git()), r.Tree(), "skills/alpha")
	if err != nil {
		t.Fatal(err)
	}
	item := auditrun.Item{Name: "alpha", Path: "skills/alpha", Tree: tree}
	run := func() ([]audit.SkillReport, error) {
		return r.AuditRunner().Auditor(policy.DefaultAuditPolicy()).Run([]auditrun.Item{item})
	}

	_, err = run()
	if err == nil || !strings.Contains(err.Error(), id) || !strings.Contains(err.Error(), "git fsck") {
		t.Fatalf("audit of a damaged skill: %v; want an error naming %s and git fsck", err, id)
	}
	restore()
	reports, err := run()
	if err != nil {
		t.Fatalf("audit after the object was restored: %v", err)
	}
	if slices.ContainsFunc(reports[0].Report.Findings, func(f audit.Finding) bool { return f.RuleID == "SG-TREE-008" }) {
		t.Errorf("after the object was restored the audit still reports content not audited: %+v", reports[0].Report.Findings)
	}
}

// hideObject moves aside the loose object of the file at p on HEAD, and returns the object's
// id and a function that puts it back.
func hideObject(t *testing.T, dir, p string) (string, func()) {
	t.Helper()
	id := strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", "HEAD:"+p))
	file := filepath.Join(gitDirOf(t, dir), "objects", id[:2], id[2:])
	if err := os.Rename(file, file+".hidden"); err != nil {
		t.Fatal(err)
	}
	return id, func() {
		if err := os.Rename(file+".hidden", file); err != nil {
			t.Fatal(err)
		}
	}
}
