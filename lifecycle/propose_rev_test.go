package lifecycle

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
)

// TestProposeFromRev brings back a skill that rollbacks removed, as a publish of it holds it:
// in its own category folder, with a message that names the commit. A revision without the
// skill names the close ones.
func TestProposeFromRev(t *testing.T) {
	dir := newRepo(t)
	testenv.WriteFiles(t, dir, map[string]string{"skills/cat/notes/SKILL.md": testenv.SkillMD("notes", cleanLine)})
	first := propose(t, dir, ProposeOptions{ActOptions: agent, Target: filepath.Join(dir, "skills/cat/notes")})
	approveAsLead(t, dir, first.ID)
	pub, err := open(t, dir).Publish(first.ID, "", lead)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := open(t, dir).Rollback("notes", "", lead); err != nil {
		t.Fatal(err)
	}

	res, err := open(t, dir).Propose(ProposeOptions{ActOptions: agent, Target: "notes", FromRev: "main~1"})
	if err != nil {
		t.Fatalf("propose notes --from-rev main~1: %v", err)
	}
	c := candidateState(t, dir, res.ID)
	if res.Change != ChangeCreate || c.Path != "skills/cat/notes" {
		t.Errorf("notes from the publish before its rollback: %s at %s; want a create at skills/cat/notes", res.Change, c.Path)
	}
	if msg := testenv.GitText(t, dir, "log", "-1", "--format=%B", "candidate/"+res.ID); !strings.Contains(msg, pub.Commit) {
		t.Errorf("message of the candidate:\n%s\nwant it to name %s", msg, pub.Commit)
	}

	_, err = open(t, dir).Propose(ProposeOptions{ActOptions: agent, Target: "note", FromRev: pub.Commit})
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "close names: notes") {
		t.Errorf("a name the revision lacks: %v; want not found, suggesting notes", err)
	}
	if _, err := open(t, dir).Propose(ProposeOptions{ActOptions: agent, Target: "notes", FromRev: "no-such-rev"}); err == nil || !strings.Contains(err.Error(), "--from-rev no-such-rev") {
		t.Errorf("a revision that does not exist: %v", err)
	}
	if _, err := open(t, dir).Propose(ProposeOptions{ActOptions: agent, Target: "notes", FromRev: pub.Commit, From: dir}); err == nil || !strings.Contains(err.Error(), "without --from") {
		t.Errorf("--from-rev with --from: %v", err)
	}
}
