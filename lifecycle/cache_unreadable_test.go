package lifecycle

import (
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
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
	id, restore := testenv.CorruptObject(t, dir, "HEAD:skills/alpha/notes.md")
	r := open(t, dir)
	tree, err := r.FolderAt(r.Tree, "skills/alpha")
	if err != nil {
		t.Fatal(err)
	}
	item := AuditItem{Name: "alpha", Path: "skills/alpha", Tree: tree}
	run := func() ([]audit.SkillReport, error) {
		a := &Auditor{Git: r.Git, Policy: policy.DefaultAuditPolicy(), Cache: r.AuditCache()}
		return a.Run([]AuditItem{item})
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
	if notAudited(reports[0].Report) {
		t.Errorf("after the object was restored the audit still reports content not audited: %+v", reports[0].Report.Findings)
	}
}

// TestTrailCacheUnreadableObject checks that the trail cache keeps only what a commit was
// found to change: a commit whose trees git cannot read is left out and read again once the
// object is restored.
func TestTrailCacheUnreadableObject(t *testing.T) {
	dir := newRepo(t)
	testenv.WriteFiles(t, dir, map[string]string{"skills/alpha/SKILL.md": testenv.SkillMD("alpha", cleanLine)})
	testenv.CommitAll(t, dir, "alpha")
	testenv.WriteFiles(t, dir, map[string]string{"skills/beta/SKILL.md": testenv.SkillMD("beta", cleanLine)})
	testenv.CommitAll(t, dir, "beta")
	_, restore := testenv.CorruptObject(t, dir, "HEAD:skills/beta")
	head := strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", "HEAD"))

	if _, err := open(t, dir).Log(""); err != nil {
		t.Fatal(err)
	}
	parent := strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", "HEAD~1"))
	tc := open(t, dir).trailCache()
	if names, ok := tc.get(plumbingHash(t, head)); ok {
		t.Errorf("the trail cache kept %v for a commit whose tree could not be read", names)
	}
	if names, ok := tc.get(plumbingHash(t, parent)); !ok || strings.Join(names, " ") != "alpha" {
		t.Errorf("the trail cache has %v, %v for the commit before; want alpha", names, ok)
	}
	restore()
	entries, err := open(t, dir).Log("beta")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Commit != head {
		t.Errorf("log of beta after the object was restored: %+v; want the commit %s", entries, head)
	}
}

func plumbingHash(t *testing.T, s string) gitstore.Hash {
	t.Helper()
	h := plumbing.NewHash(s)
	if h.String() != s {
		t.Fatalf("%q is not an object id", s)
	}
	return h
}
