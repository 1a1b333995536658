package ledger_test

import (
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
)

// TestTrailCacheUnreadableObject checks that a commit whose trees git cannot read is an error
// naming it, never a commit that changed nothing: the trail cache keeps nothing for it, and
// it is read again once the object is restored.
func TestTrailCacheUnreadableObject(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	testenv.WriteFiles(t, dir, map[string]string{"skills/alpha/SKILL.md": testenv.SkillMD("alpha", "Run the linter.")})
	testenv.CommitAll(t, dir, "alpha")
	testenv.WriteFiles(t, dir, map[string]string{"skills/beta/SKILL.md": testenv.SkillMD("beta", "Run the tests.")})
	testenv.CommitAll(t, dir, "beta")
	_, restore := testenv.CorruptObject(t, dir, "HEAD:skills/beta")
	head := strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", "HEAD"))

	_, err := lifecycletest.Open(t, dir).Log("")
	if err == nil || !strings.Contains(err.Error(), "commit "+head[:12]) {
		t.Fatalf("log over a tree git cannot read: %v; want an error naming commit %s", err, head[:12])
	}
	tc := lifecycletest.Open(t, dir).Book().Trail().TrailCache()
	if names, ok := tc.Get(plumbing.NewHash(head)); ok {
		t.Errorf("the trail cache kept %v for a commit whose tree could not be read", names)
	}
	restore()
	entries, err := lifecycletest.Open(t, dir).Log("beta")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Commit != head {
		t.Errorf("log of beta after the object was restored: %+v; want the commit %s", entries, head)
	}
}
