package lifecycle

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
)

// proposeAt proposes the skill name written in folder p of the working tree, and returns the
// result and error of Propose.
func proposeAt(t *testing.T, dir, p, name string) (*Result, error) {
	t.Helper()
	testenv.WriteFiles(t, dir, map[string]string{p + "/SKILL.md": testenv.SkillMD(name, cleanLine)})
	return open(t, dir).Propose(ProposeOptions{ActOptions: agent, Target: filepath.Join(dir, p)})
}

// publishAt proposes, approves and publishes the skill name in folder p, and returns its id.
func publishAt(t *testing.T, dir, p, name, channel string) string {
	t.Helper()
	res, err := proposeAt(t, dir, p, name)
	if err != nil {
		t.Fatalf("propose %s: %v", p, err)
	}
	approveAsLead(t, dir, res.ID)
	if _, err := open(t, dir).Publish(res.ID, channel, lead); err != nil {
		t.Fatalf("publish %s: %v", p, err)
	}
	return res.ID
}

// wantClash checks that err is a conflict that names the folder other.
func wantClash(t *testing.T, what string, err error, other string) {
	t.Helper()
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), other) {
		t.Fatalf("%s: %v; want a conflict naming %s", what, err, other)
	}
}

// TestPublishAsRefusesNameInOtherFolder checks that --as cannot give a name that a skill in
// another category folder holds.
func TestPublishAsRefusesNameInOtherFolder(t *testing.T) {
	dir := newRepo(t)
	publishAt(t, dir, "skills/ops/deploy", "deploy", "")
	res, err := proposeAt(t, dir, "skills/tools/newthing", "newthing")
	if err != nil {
		t.Fatal(err)
	}
	approveAsLead(t, dir, res.ID)
	_, err = open(t, dir).PublishAs(res.ID, "", "deploy", lead)
	wantClash(t, "PublishAs deploy", err, "skills/ops/deploy")
	if _, err := open(t, dir).PublishAs(res.ID, "", "deploy-tools", lead); err != nil {
		t.Fatalf("PublishAs a free name: %v", err)
	}
}

// TestProposeRefusesNameOfOpenCandidate checks that a new skill cannot be proposed in a folder
// other than the one an open candidate proposes for its name.
func TestProposeRefusesNameOfOpenCandidate(t *testing.T) {
	dir := newRepo(t)
	if _, err := proposeAt(t, dir, "skills/a/lint", "lint"); err != nil {
		t.Fatal(err)
	}
	_, err := proposeAt(t, dir, "skills/b/lint", "lint")
	wantClash(t, "propose skills/b/lint", err, "skills/a/lint")
}

// renamedCandidate proposes the skill linter in skills/b/linter and gives its frontmatter
// the name lint with a git commit on its branch, then approves it; it returns its id.
func renamedCandidate(t *testing.T, dir string) string {
	t.Helper()
	res, err := proposeAt(t, dir, "skills/b/linter", "linter")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "skills/b")); err != nil {
		t.Fatal(err)
	}
	testenv.Git(t, dir, "checkout", "-q", "candidate/"+res.ID)
	testenv.WriteFiles(t, dir, map[string]string{"skills/b/linter/SKILL.md": testenv.SkillMD("lint", cleanLine)})
	testenv.Git(t, dir, "add", "skills/b/linter/SKILL.md")
	testenv.Git(t, dir, "commit", "-q", "-m", "call it lint")
	testenv.Git(t, dir, "checkout", "-q", "main")
	approveAsLead(t, dir, res.ID)
	return res.ID
}

// TestPublishRefusesNameInOtherFolder checks that a publish cannot give a name that a skill in
// another folder holds, on the channel it lands on or, for the publish branch, on canary.
func TestPublishRefusesNameInOtherFolder(t *testing.T) {
	dir := newRepo(t)
	publishAt(t, dir, "skills/a/lint", "lint", "")
	id := renamedCandidate(t, dir)
	_, err := open(t, dir).Publish(id, "", lead)
	wantClash(t, "Publish", err, "skills/a/lint")
	_, err = open(t, dir).Publish(id, "canary", lead)
	wantClash(t, "Publish to canary", err, "skills/a/lint")

	dir = newRepo(t)
	publishAt(t, dir, "skills/a/lint", "lint", "canary")
	id = renamedCandidate(t, dir)
	_, err = open(t, dir).Publish(id, "", lead)
	wantClash(t, "Publish while canary has lint", err, "canary already has the skill lint at skills/a/lint")
}
