package lifecycle

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
)

// proposeFiles proposes the skill name as a folder holding files (SKILL.md included), as an
// agent, and returns the candidate's id.
func proposeFiles(t *testing.T, dir, name string, files map[string]string) string {
	t.Helper()
	src := t.TempDir()
	in := map[string]string{}
	for p, data := range files {
		in[name+"/"+p] = data
	}
	testenv.WriteFiles(t, src, in)
	return propose(t, dir, ProposeOptions{ActOptions: agent, From: filepath.Join(src, name)}).ID
}

// staleSetUp publishes fmt, proposes and approves candidate a, which edits its SKILL.md, then
// publishes a reference file added to fmt by another candidate. It returns a's id.
func staleSetUp(t *testing.T, dir string) string {
	t.Helper()
	publishedSkill(t, dir, "fmt", cleanLine)
	a := proposeFiles(t, dir, "fmt", map[string]string{"SKILL.md": testenv.SkillMD("fmt", cleanLine, "Edited by a.")})
	approveAsLead(t, dir, a)
	b := proposeFiles(t, dir, "fmt", map[string]string{"SKILL.md": testenv.SkillMD("fmt", cleanLine), "reference.md": "# Reference\n"})
	approveAsLead(t, dir, b)
	if _, err := open(t, dir).Publish(b, "", lead); err != nil {
		t.Fatal(err)
	}
	return a
}

// gitMergeMain merges main into candidate id with git, with the extra arguments args.
func gitMergeMain(t *testing.T, dir, id string, args ...string) {
	t.Helper()
	testenv.Git(t, dir, "checkout", "-q", "candidate/"+id)
	testenv.Git(t, dir, append([]string{"merge", "-q"}, append(args, "main")...)...)
	testenv.Git(t, dir, "checkout", "-q", "main")
}

// wantStale checks that publishing id is refused as a conflict that names its rebase.
func wantStale(t *testing.T, dir, id string) {
	t.Helper()
	_, err := open(t, dir).Publish(id, "", lead)
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "skillgit rebase "+id) {
		t.Fatalf("Publish %s: %v; want a conflict naming `skillgit rebase %s`", id, err, id)
	}
}

// TestPublishRefusesMergeOurs checks that an approved candidate whose branch took main in with
// `git merge -s ours` cannot publish over the newer publish of its skill, keeps its approval
// (its content did not change), and after `skillgit rebase`, which brings the newer publish in,
// needs a new one.
func TestPublishRefusesMergeOurs(t *testing.T) {
	dir := newRepo(t)
	a := staleSetUp(t, dir)
	gitMergeMain(t, dir, a, "-s", "ours", "-m", "merge main")
	if c := candidateState(t, dir, a); c.State != StateApproved {
		t.Fatalf("after git merge -s ours: state %s; want approved (the content did not change)", c.State)
	}
	wantStale(t, dir, a)
	rv, err := open(t, dir).Review(a)
	if err != nil || len(rv.Conflicts) != 1 || rv.Conflicts[0] != "skills/fmt" {
		t.Fatalf("Review: %v, conflicts %v; want skills/fmt", err, rv.Conflicts)
	}
	if _, err := open(t, dir).Rebase(a, lead); err != nil {
		t.Fatal(err)
	}
	if c := candidateState(t, dir, a); c.State != StateOpen {
		t.Fatalf("after the rebase: state %s; want open (the folder changed)", c.State)
	}
	approveAsLead(t, dir, a)
	if _, err := open(t, dir).Publish(a, "", lead); err != nil {
		t.Fatal(err)
	}
	if got := testenv.GitText(t, dir, "show", "main:skills/fmt/SKILL.md"); !strings.Contains(got, "Edited by a.") {
		t.Errorf("main's SKILL.md lacks a's edit:\n%s", got)
	}
	testenv.Git(t, dir, "cat-file", "-e", "main:skills/fmt/reference.md")
}

// TestPublishAfterGitMergeNeedsRebase checks that a candidate that took main in with a plain
// git merge, approved after it, is still refused until `skillgit rebase`, which changes
// nothing in it and so keeps the approval.
func TestPublishAfterGitMergeNeedsRebase(t *testing.T) {
	dir := newRepo(t)
	a := staleSetUp(t, dir)
	gitMergeMain(t, dir, a, "--no-edit")
	approveAsLead(t, dir, a)
	wantStale(t, dir, a)
	before := gitRev(t, dir, "candidate/"+a+"^{tree}")
	if _, err := open(t, dir).Rebase(a, lead); err != nil {
		t.Fatal(err)
	}
	if after := gitRev(t, dir, "candidate/"+a+"^{tree}"); after != before {
		t.Errorf("the rebase changed the tree %s to %s; the merge had brought main in already", before, after)
	}
	if c := candidateState(t, dir, a); c.State != StateApproved {
		t.Fatalf("after the rebase: state %s; want approved", c.State)
	}
	if _, err := open(t, dir).Publish(a, "", lead); err != nil {
		t.Fatal(err)
	}
	testenv.Git(t, dir, "cat-file", "-e", "main:skills/fmt/reference.md")
}

// TestForgedRebaseKeepsBase checks that a git merge that keeps the candidate's tree and wears a
// rebase's trailers does not move the candidate's base: publish still refuses it.
func TestForgedRebaseKeepsBase(t *testing.T) {
	dir := newRepo(t)
	a := staleSetUp(t, dir)
	gitMergeMain(t, dir, a, "-s", "ours", "-m", "rebase: fmt onto main",
		"-m", "Skillgit-Action: rebase\nSkillgit-Skill: fmt\nSkillgit-Candidate: "+a+"\nSkillgit-Base: "+gitRev(t, dir, "main"))
	if base, merged := baseOf(t, dir, a); base == gitRev(t, dir, "main") || !merged {
		t.Fatalf("chainBase: base at main %v, merged %v; want the proposal's base and a merge", base == gitRev(t, dir, "main"), merged)
	}
	wantStale(t, dir, a)
	if _, err := open(t, dir).Rebase(a, lead); err != nil {
		t.Fatal(err)
	}
	if base, _ := baseOf(t, dir, a); base != gitRev(t, dir, "main") {
		t.Errorf("after a real rebase the base is %s; want main's tip", base)
	}
}

// baseOf is candidate id's recorded base, and whether its branch holds another merge.
func baseOf(t *testing.T, dir, id string) (string, bool) {
	t.Helper()
	r := open(t, dir)
	id, ref, tip, err := r.book().Locate(id)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := r.loadChain(id, ref, tip)
	if err != nil {
		t.Fatal(err)
	}
	base, merged, err := newPlanner(r).chainBase(ch)
	if err != nil {
		t.Fatal(err)
	}
	return base.String(), merged
}

func gitRev(t *testing.T, dir, rev string) string {
	t.Helper()
	return strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", rev))
}
