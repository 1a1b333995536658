package lifecycle

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skillgit/skillgit/internal/testenv"
)

// TestProposeNameMismatch holds a new skill from a folder on disk to its folder's name, as
// validate does; a pack's folder is stored under its skill's name, and a patch from a folder
// named otherwise is proposed with a warning.
func TestProposeNameMismatch(t *testing.T) {
	dir := newRepo(t)
	src := t.TempDir()
	testenv.WriteFiles(t, src, map[string]string{
		"code-review/SKILL.md":  testenv.SkillMD("code-reviewer", cleanLine),
		"review-draft/SKILL.md": testenv.SkillMD("code-reviewer", cleanLine, "Shorter."),
	})
	_, err := open(t, dir).Propose(ProposeOptions{ActOptions: agent, From: src + "/code-review"})
	if err == nil || !strings.Contains(err.Error(), `name "code-reviewer" does not match its folder "code-review"`) {
		t.Fatalf("a new skill named otherwise than its folder on disk: %v; want the mismatch refused", err)
	}

	pack := fstest.MapFS{"upstream/SKILL.md": {Data: []byte(testenv.SkillMD("code-reviewer", cleanLine))}}
	res := propose(t, dir, ProposeOptions{ActOptions: agent, Target: "code-reviewer", Source: pack, SourceDir: "upstream", SourceLabel: "pack"})
	if c := candidateState(t, dir, res.ID); c.Path != "skills/code-reviewer" {
		t.Fatalf("a pack's folder named otherwise: stored at %s; want skills/code-reviewer", c.Path)
	}
	approveAsLead(t, dir, res.ID)
	if _, err := open(t, dir).Publish(res.ID, "", lead); err != nil {
		t.Fatal(err)
	}

	patch := propose(t, dir, ProposeOptions{ActOptions: agent, From: src + "/review-draft"})
	if patch.Change != ChangePatch || !slices.ContainsFunc(patch.Warnings, func(w string) bool {
		return strings.Contains(w, `name "code-reviewer" does not match its folder "review-draft"`)
	}) {
		t.Errorf("a patch from a folder named otherwise: %s, warnings %q; want a patch that warns of the mismatch", patch.Change, patch.Warnings)
	}
}
