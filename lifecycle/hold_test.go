package lifecycle

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
)

// approvedCandidates proposes and approves n skills named held-0, held-1, …, and returns
// their ids.
func approvedCandidates(t *testing.T, dir string, n int) []string {
	t.Helper()
	var ids []string
	for k := range n {
		name := fmt.Sprintf("held-%d", k)
		id := proposeFiles(t, dir, name, map[string]string{"SKILL.md": testenv.SkillMD(name, cleanLine)})
		approveAsLead(t, dir, id)
		ids = append(ids, id)
	}
	return ids
}

// publishHeld publishes ids on r while its refs are held, reloading between them as a batch
// does, and returns the commits.
func publishHeld(t *testing.T, r *Repo, ids []string) []string {
	t.Helper()
	r.Hold()
	var commits []string
	for _, id := range ids {
		if err := r.Reload(); err != nil {
			t.Fatal(err)
		}
		res, err := r.Publish(id, "", lead)
		if err != nil {
			t.Fatalf("held publish of %s: %v", id, err)
		}
		commits = append(commits, res.Commit)
	}
	return commits
}

// mainAt is the commit main is at, as git reads it.
func mainAt(t *testing.T, dir string) string {
	t.Helper()
	return strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", "main"))
}

// TestHeldPublishesLandTogether checks publishes made while refs are held: no other process
// sees them until they land, and then each is its own merge commit with its trailers, every
// candidate branch is gone, and the checked-out files, the index and the history are what
// publishing them one at a time leaves.
func TestHeldPublishesLandTogether(t *testing.T) {
	dir := newRepo(t)
	ids := approvedCandidates(t, dir, 3)
	before := mainAt(t, dir)
	r := open(t, dir)
	commits := publishHeld(t, r, ids)
	if got := mainAt(t, dir); got != before {
		t.Fatalf("git sees main at %s before the publishes land, want %s", got, before)
	}
	if _, err := os.Stat(filepath.Join(dir, "skills", "held-0")); err == nil {
		t.Fatal("a held publish wrote its files before it landed")
	}
	if _, err := r.Land(); err != nil {
		t.Fatal(err)
	}
	if got := mainAt(t, dir); got != commits[2] {
		t.Errorf("main after Land = %s, want the last publish %s", got, commits[2])
	}
	for i, id := range ids {
		msg := testenv.GitText(t, dir, "log", "-1", "--format=%P%n%B", commits[i])
		if !strings.Contains(msg, "Skillgit-Candidate: "+id) || len(strings.Fields(strings.SplitN(msg, "\n", 2)[0])) != 2 {
			t.Errorf("publish commit of %s is not a merge with its trailers:\n%s", id, msg)
		}
		if out := testenv.GitText(t, dir, "for-each-ref", "refs/heads/candidate/"+id); out != "" {
			t.Errorf("candidate branch of %s left after it landed: %s", id, out)
		}
		if _, err := os.Stat(filepath.Join(dir, "skills", fmt.Sprintf("held-%d", i), "SKILL.md")); err != nil {
			t.Errorf("the checked-out files lack held-%d: %v", i, err)
		}
	}
	testenv.Fsck(t, dir)
}

// TestHeldPublishesLandNothingWhenMainMoved checks that publishes held while another process
// published do not land over it: nothing of theirs moves, the other publish stays, and each
// candidate can be published again.
func TestHeldPublishesLandNothingWhenMainMoved(t *testing.T) {
	dir := newRepo(t)
	ids := approvedCandidates(t, dir, 3)
	r := open(t, dir)
	publishHeld(t, r, ids[:2])
	other, err := open(t, dir).Publish(ids[2], "", lead)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Land(); !errors.Is(err, gitstore.ErrRefChanged) {
		t.Fatalf("Land after another process published = %v, want ErrRefChanged", err)
	}
	if got := mainAt(t, dir); got != other.Commit {
		t.Fatalf("main after the failed Land = %s, want the other process's publish %s", got, other.Commit)
	}
	for _, id := range ids[:2] {
		testenv.Git(t, dir, "rev-parse", "--verify", "-q", "refs/heads/candidate/"+id)
		if err := r.Reload(); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Publish(id, "", lead); err != nil {
			t.Errorf("publishing %s again after the failed Land: %v", id, err)
		}
	}
	testenv.Fsck(t, dir)
}

// TestHeldPublishesKeepLocalChanges checks that held publishes that would overwrite a local
// change to a checked-out file do not land, and leave the change as it was.
func TestHeldPublishesKeepLocalChanges(t *testing.T) {
	dir := newRepo(t)
	publishedSkill(t, dir, "fmt", cleanLine)
	a := proposeFiles(t, dir, "fmt", map[string]string{"SKILL.md": testenv.SkillMD("fmt", cleanLine, "Edited.")})
	approveAsLead(t, dir, a)
	ids := append(approvedCandidates(t, dir, 1), a)
	local := filepath.Join(dir, "skills", "fmt", "SKILL.md")
	if err := os.WriteFile(local, []byte("my local edit\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := mainAt(t, dir)
	r := open(t, dir)
	publishHeld(t, r, ids)
	if _, err := r.Land(); !errors.Is(err, gitstore.ErrDirty) {
		t.Fatalf("Land over a local change = %v, want ErrDirty", err)
	}
	if got := mainAt(t, dir); got != before {
		t.Errorf("main moved to %s though the files could not follow", got)
	}
	if b, err := os.ReadFile(local); err != nil || string(b) != "my local edit\n" {
		t.Errorf("the local change is now %q (%v)", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "skills", "held-0")); err == nil {
		t.Error("the files of a publish that did not land were written")
	}
}
