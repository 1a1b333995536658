package ledger_test

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// partialClone makes a bare partial clone of the branches of repository dir with git's
// object filter, as an application project's cached clone is made, and returns a book of its
// main branch.
func partialClone(t *testing.T, dir, filter string) *ledger.Book {
	t.Helper()
	testenv.Git(t, dir, "config", "uploadpack.allowFilter", "true")
	clone := filepath.Join(t.TempDir(), "clone.git")
	testenv.Git(t, filepath.Dir(clone), "init", "-q", "--bare", clone)
	testenv.Git(t, clone, "-c", "protocol.version=2", "-c", "remote.origin.promisor=true", "fetch", "-q", "--no-tags",
		"--filter="+filter, "file://"+dir, "+refs/heads/*:refs/heads/*")
	g, err := gitstore.Open(clone)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	tip, err := g.Refs().Get("refs/heads/main")
	if err != nil {
		t.Fatal(err)
	}
	c, err := g.Objects().Commit(tip)
	if err != nil {
		t.Fatal(err)
	}
	return &ledger.Book{Git: ledger.ReaderOf(g), Config: &policy.Config{SkillsDir: "skills"}, Branch: "refs/heads/main",
		Tip: tip, Tree: c.TreeHash, Ledger: ledger.New(ledger.StoreOf(g), "skills")}
}

// TestPartialCloneLastChange checks the ledger over a partial clone: with the trees of the
// history, the last change of a skill is the plain commit that changed it after its publish;
// without them, it is an error that names the commit and what to do, never the publish
// before it, which a commit it cannot read would otherwise hide.
func TestPartialCloneLastChange(t *testing.T) {
	h := newHistory(t)
	plain := commitFolderAs(t, h.dir, h.draft, "Put the draft back.")

	last, err := partialClone(t, h.dir, "blob:none").Trail().LastChanges(plumbing.NewHash(plain), []string{"t1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := last["t1"]; got.Commit != plain || got.Action != "commit" {
		t.Fatalf("last change of t1 with every tree: %+v; want the plain commit %s", got, plain)
	}

	b := partialClone(t, h.dir, "tree:0")
	_, err = b.Trail().LastChanges(b.Tip, []string{"t1"})
	checkMissing(t, err, plain)
	_, err = b.VerifyInstall(b.Tip, "t1", ledger.Trust{Need: 1, File: "trusted_signers"})
	checkMissing(t, err, plain)
}

// TestPartialClonePublish checks that the publish itself is read as one from a partial
// clone that holds the trees, and is an error from one that does not.
func TestPartialClonePublish(t *testing.T) {
	h := newHistory(t)
	pub := plumbing.NewHash(h.publish)
	last, err := partialClone(t, h.dir, "blob:none").Trail().LastChanges(pub, []string{"t1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := last["t1"]; got.Commit != h.publish || got.Action != ledger.ActPublish || len(got.ApprovedBy) != 1 {
		t.Fatalf("last change of t1: %+v; want the publish %s, approved by one", got, h.publish)
	}
	_, err = partialClone(t, h.dir, "tree:0").Trail().LastChanges(pub, []string{"t1"})
	checkMissing(t, err, h.publish)
}

// checkMissing fails the test unless err says that commit's objects are missing and what
// to do.
func checkMissing(t *testing.T, err error, commit string) {
	t.Helper()
	if err == nil {
		t.Fatal("no error from a clone that lacks the trees of the history")
	}
	for _, want := range []string{"commit " + commit[:12], "lacks objects", "skillgit sync --update"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// TestLastChangeClaimedOtherAction checks that a commit whose trailers claim an action that
// changes no skill, such as a mode change, and that edits a skill's folder is that skill's
// last change, and that VerifyInstall refuses what it put there, rather than trace the skill
// back to the approved publish before it.
func TestLastChangeClaimedOtherAction(t *testing.T) {
	h := newHistory(t)
	testenv.Git(t, h.dir, "checkout", h.draft, "--", "skills/t1")
	testenv.Git(t, h.dir, "commit", "-q", "-m", "Mode: auto.\n\nSkillgit-Action: mode\nSkillgit-Mode: auto")
	forged := strings.TrimSpace(testenv.GitText(t, h.dir, "rev-parse", "HEAD"))
	g, err := gitstore.Open(h.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	c, err := g.Objects().Commit(plumbing.NewHash(forged))
	if err != nil {
		t.Fatal(err)
	}
	b := &ledger.Book{Git: ledger.ReaderOf(g), Config: &policy.Config{SkillsDir: "skills"}, Branch: "refs/heads/main",
		Tip: plumbing.NewHash(forged), Tree: c.TreeHash, Ledger: ledger.New(ledger.StoreOf(g), "skills")}
	last, err := b.Trail().LastChanges(b.Tip, []string{"t1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := last["t1"]; got.Commit != forged {
		t.Fatalf("last change of t1: %+v; want the commit %s that claims a mode change and edits it", got, forged)
	}
	if _, err := b.VerifyInstall(b.Tip, "t1", ledger.Trust{Need: 1, File: "trusted_signers"}); err == nil || !strings.Contains(err.Error(), forged[:12]) {
		t.Fatalf("VerifyInstall after a commit claiming a mode change edited t1: %v; want a refusal naming %s", err, forged[:12])
	}
}

// TestVerifyInstallsAgreesWithVerifyInstall checks that verifying many skills in one walk
// gives each the proof or the error that verifying it alone gives: a published skill, one a
// plain commit changed since, and a name nothing put there.
func TestVerifyInstallsAgreesWithVerifyInstall(t *testing.T) {
	h := newHistory(t)
	plain := commitFolderAs(t, h.dir, h.draft, "Put the draft back.")
	b := partialClone(t, h.dir, "blob:none")
	trust := ledger.Trust{Need: 1, File: "trusted_signers"}
	names := []string{"t1", "missing"}
	proofs, errs := b.VerifyInstalls(plumbing.NewHash(plain), names, trust)
	for _, n := range names {
		want, wantErr := b.VerifyInstall(plumbing.NewHash(plain), n, trust)
		if fmt.Sprint(errs[n]) != fmt.Sprint(wantErr) || !reflect.DeepEqual(proofs[n], want) {
			t.Errorf("%s: VerifyInstalls gave %+v, %v; VerifyInstall gives %+v, %v", n, proofs[n], errs[n], want, wantErr)
		}
		if errs[n] == nil {
			t.Errorf("%s: verified, though no signed approval put it there", n)
		}
	}
	if !strings.Contains(fmt.Sprint(errs["t1"]), plain[:12]) {
		t.Errorf("t1: %v; want the plain commit %s that changed it named", errs["t1"], plain[:12])
	}
	if !strings.Contains(fmt.Sprint(errs["missing"]), "no publish on the channel put missing there") {
		t.Errorf("missing: %v", errs["missing"])
	}
}
