package lifecycle

import (
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
)

func TestMergeCandidateStoppedLeavesNoTemp(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir := newRepo(t)
	src := t.TempDir()
	testenv.WriteFiles(t, src, map[string]string{
		"older/SKILL.md": testenv.SkillMD("older", cleanLine),
		"newer/SKILL.md": testenv.SkillMD("newer", cleanLine),
	})
	older := propose(t, dir, ProposeOptions{ActOptions: agent, From: src + "/older", Message: "older"})
	newer := propose(t, dir, ProposeOptions{ActOptions: agent, From: src + "/newer", Message: "newer"})
	made := testenv.StopAfterTemp(t, &tempMade)
	_, _, _ = open(t, dir).MergeCandidate(newer.ID, older.ID, "", lead) // fails or not, depending on what vanished
	if *made == "" || !strings.HasPrefix(*made, tmp) {
		t.Fatalf("temporary folder %q; want one in %s", *made, tmp)
	}
	if left := testenv.EntriesWith(t, tmp, "skillgit-merge-"); len(left) > 0 {
		t.Errorf("temporary folders left: %v", left)
	}
}
