package auditrun_test

import (
	"fmt"
	"testing"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle"
)

// TestAuditPushedProgress checks that the progress of a push's audit counts the skills of all
// its updates as one total, from none done to all of them, never going back.
func TestAuditPushedProgress(t *testing.T) {
	dir := newRepo(t)
	var updates []gitstore.RefUpdate
	for _, branch := range []string{"candidate/a", "candidate/b"} {
		testenv.Git(t, dir, "checkout", "-q", "-b", branch, "main")
		files := map[string]string{}
		for i := range 3 {
			name := fmt.Sprintf("%s%d", branch[len(branch)-1:], i)
			files["skills/"+name+"/SKILL.md"] = testenv.SkillMD(name, cleanLine)
		}
		testenv.WriteFiles(t, dir, files)
		testenv.CommitAll(t, dir, "three skills")
		updates = append(updates, gitstore.RefUpdate{Ref: "refs/heads/" + branch, New: revParse(t, dir, branch)})
	}
	var seen [][2]int
	run, err := lifecycle.AuditPushed(dir, updates, func(string) string { return "" }, func(done, total int) {
		seen = append(seen, [2]int{done, total})
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Reports) != 6 || len(seen) == 0 || seen[0] != [2]int{0, 6} || seen[len(seen)-1] != [2]int{6, 6} {
		t.Fatalf("%d reports, progress %v", len(run.Reports), seen)
	}
	for i := 1; i < len(seen); i++ {
		if seen[i][0] < seen[i-1][0] || seen[i][1] != 6 {
			t.Fatalf("progress goes back or changes its total: %v", seen)
		}
	}
}
