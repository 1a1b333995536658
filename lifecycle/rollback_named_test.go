package lifecycle

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/initrepo"
	"github.com/skillgit/skillgit/skills"
)

// TestRollbackNamedCommit undoes one skill of a publish that changed two: the named skill is
// restored, the other stays, and a commit that is no publish of the skill is refused.
func TestRollbackNamedCommit(t *testing.T) {
	hermetic(t)
	dir := filepath.Join(t.TempDir(), "repo")
	if _, err := initrepo.Init(initrepo.Options{Dir: dir, Pack: skills.FS(), PackName: "builtin", PackVersion: skills.Version}); err != nil {
		t.Fatal(err)
	}
	pub := open(t, dir).tip.String()
	if _, err := open(t, dir).Rollback("skillgit", "0000000", lead); err == nil || !strings.Contains(err.Error(), "not a publish of this skill") {
		t.Fatalf("rollback with an unknown commit: %v", err)
	}
	res, err := open(t, dir).Rollback("skillgit", pub[:10], lead)
	if err != nil || res.Reverts != pub {
		t.Fatalf("rollback of one skill of a pack publish: %+v, %v", res, err)
	}
	r := open(t, dir)
	if _, err := r.Published().Find("skillgit"); err == nil {
		t.Errorf("skillgit is still published after its rollback")
	}
	if _, err := r.Published().Find("skill-authoring"); err != nil {
		t.Errorf("skill-authoring was rolled back too: %v", err)
	}
	testenv.Fsck(t, dir)
}
