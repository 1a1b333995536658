package packs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// TestUpdateGroupThatCannotLand checks an update whose held group of proposals cannot land:
// after the first proposal is held, a file takes the place of the folder the candidate
// branches go in. The group is proposed again one change at a time, each skipped with its
// reason, nothing is left half made, and once the file is gone the next update proposes
// every skill.
func TestUpdateGroupThatCannotLand(t *testing.T) {
	testenv.Hermetic(t, nil)
	dir := lifecycletest.NewRepo(t)
	files := map[string]string{}
	for i := range 3 {
		name := fmt.Sprintf("held%d", i)
		files["skills/"+name+"/SKILL.md"] = testenv.SkillMD(name, cleanLine)
	}
	src := packSource(t, t.TempDir(), "held", files)
	if _, err := Add(lifecycletest.Open(t, dir), policy.Pack{Name: "held", URL: "file://" + src}, lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	blocker := filepath.Join(dir, ".git", "refs", "heads", "candidate")
	o := UpdateOptions{ActOptions: lifecycletest.Agent, Step: func(done, total int) {
		if done == 1 && total == 3 {
			if err := os.WriteFile(blocker, []byte("in the way\n"), 0o644); err != nil {
				t.Error(err)
			}
		}
	}}
	ups, err := Update(lifecycletest.Open(t, dir), "held", o)
	if err != nil {
		t.Fatal(err)
	}
	up := ups[0]
	if len(up.Candidates) != 0 || len(up.Skipped) != 3 {
		t.Fatalf("update with the branches' folder blocked: %d candidates, skipped %+v; want all 3 skipped", len(up.Candidates), up.Skipped)
	}
	for _, sk := range up.Skipped {
		// Made again, each meets the file, not a candidate of the group that was dropped.
		if !strings.Contains(sk.Reason, "conflicts with existing ref refs/heads/candidate") {
			t.Errorf("%s skipped for %q, want the file in the way", sk.Skill, sk.Reason)
		}
	}
	if !strings.Contains(strings.Join(up.Warnings, "\n"), "made again one at a time") {
		t.Errorf("warnings do not say the group was made again: %q", up.Warnings)
	}
	if refs := testenv.GitText(t, dir, "for-each-ref", "refs/heads/"); strings.Contains(refs, "candidate") {
		t.Errorf("a candidate branch was made though its group did not land:\n%s", refs)
	}
	if err := os.Remove(blocker); err != nil {
		t.Fatal(err)
	}
	o.Step = nil
	ups, err = Update(lifecycletest.Open(t, dir), "held", o)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ups[0].Candidates); n != 3 {
		t.Errorf("the next update proposed %d skills, want 3: %+v", n, ups[0].Skipped)
	}
	testenv.Fsck(t, dir)
}
