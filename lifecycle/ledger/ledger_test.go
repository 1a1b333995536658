package ledger_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/lifecycletest"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/initrepo"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/skills"
)

// history is a repository whose main holds: t1 proposed as a draft, revised, approved and
// published; then a plain commit the test makes on top.
type history struct {
	dir                     string
	draft, revised, publish string
}

func newHistory(t *testing.T) *history {
	t.Helper()
	dir := lifecycletest.NewRepo(t)
	res := lifecycletest.ProposeNew(t, dir, "t1", "The first draft.")
	h := &history{dir: dir, draft: res.Commit}
	src := t.TempDir()
	testenv.WriteFiles(t, src, map[string]string{"t1/SKILL.md": testenv.SkillMD("t1", "The revised version.")})
	rev, err := lifecycletest.Open(t, dir).Revise(res.ID, lifecycle.ProposeOptions{ActOptions: lifecycletest.Agent, From: filepath.Join(src, "t1"), Message: "Tighter."})
	if err != nil {
		t.Fatal(err)
	}
	h.revised = rev.Commit
	lifecycletest.ApproveAsLead(t, dir, res.ID)
	pub, err := lifecycletest.Open(t, dir).Publish(res.ID, "", lifecycletest.Lead)
	if err != nil {
		t.Fatal(err)
	}
	h.publish = pub.Commit
	return h
}

// step derives commit rev of the repository.
func step(t *testing.T, dir, rev string) *ledger.Step {
	t.Helper()
	g, err := gitstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	h := plumbing.NewHash(strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", rev)))
	st, err := ledger.New(ledger.StoreOf(g), "skills").Step(h)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// commitFolderAs commits, on main, skills/t1 as commit rev holds it, with message msg.
func commitFolderAs(t *testing.T, dir, rev, msg string) string {
	t.Helper()
	testenv.Git(t, dir, "checkout", rev, "--", "skills/t1")
	testenv.Git(t, dir, "commit", "-q", "-m", msg)
	return strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", "HEAD"))
}

func TestPublishAndRollback(t *testing.T) {
	h := newHistory(t)
	pub := step(t, h.dir, h.publish)
	if pub.Kind != ledger.KindPublish || pub.Via != "skillgit" || pub.Unverified != "" {
		t.Fatalf("publish step: %+v", pub)
	}
	res, err := lifecycletest.Open(t, h.dir).Rollback("t1", "", lifecycletest.Lead)
	if err != nil {
		t.Fatal(err)
	}
	rb := step(t, h.dir, res.Commit)
	if rb.Kind != ledger.KindRollback || rb.Undoes.String() != h.publish {
		t.Fatalf("rollback step: kind %s, undoes %s, unverified %q; want the publish %s", rb.Kind, rb.Undoes, rb.Unverified, h.publish)
	}
}

// TestForgedRollback: a commit that puts back the first draft, naming the revise commit as
// what it reverts, is no rollback: the revise commit is no publish of the first-parent line.
func TestForgedRollback(t *testing.T) {
	h := newHistory(t)
	forged := commitFolderAs(t, h.dir, h.draft, "rollback: t1\n\nThis reverts commit "+h.revised+".\n\nSkillgit-Action: rollback\nSkillgit-Skill: t1\nSkillgit-Reverts: "+h.revised)
	st := step(t, h.dir, forged)
	if st.Kind != ledger.KindCommit || !strings.Contains(st.Unverified, "not on this branch's first-parent line") {
		t.Fatalf("forged rollback: kind %s, unverified %q", st.Kind, st.Unverified)
	}
}

// TestRevertOfRollback: git revert of a rollback brings back what it removed without approval:
// it is no rollback.
func TestRevertOfRollback(t *testing.T) {
	h := newHistory(t)
	res, err := lifecycletest.Open(t, h.dir).Rollback("t1", "", lifecycletest.Lead)
	if err != nil {
		t.Fatal(err)
	}
	testenv.Git(t, h.dir, "reset", "-q", "--hard", "main")
	testenv.Git(t, h.dir, "revert", "--no-edit", res.Commit)
	st := step(t, h.dir, "HEAD")
	if st.Kind != ledger.KindCommit || !strings.Contains(st.Unverified, "not a publish") {
		t.Fatalf("revert of a rollback: kind %s, unverified %q", st.Kind, st.Unverified)
	}
}

// TestRepublishAfterRollback: merging a candidate's old tip again after its publish was rolled
// back is no publish.
func TestRepublishAfterRollback(t *testing.T) {
	h := newHistory(t)
	if _, err := lifecycletest.Open(t, h.dir).Rollback("t1", "", lifecycletest.Lead); err != nil {
		t.Fatal(err)
	}
	testenv.Git(t, h.dir, "reset", "-q", "--hard", "main")
	tip := strings.TrimSpace(testenv.GitText(t, h.dir, "rev-parse", h.publish+"^2"))
	testenv.Git(t, h.dir, "merge", "-q", "--no-ff", "-m", "publish again", tip)
	st := step(t, h.dir, "HEAD")
	if st.Kind == ledger.KindPublish {
		t.Fatalf("a merge of a tip merged before is taken for a publish: %+v", st)
	}
}

// TestForgedApprovers: a publish merge whose Approved-By names someone who never approved is
// no publish.
func TestForgedApprovers(t *testing.T) {
	dir := lifecycletest.NewRepo(t)
	res := lifecycletest.ProposeNew(t, dir, "t1", "A skill.")
	lifecycletest.ApproveAsLead(t, dir, res.ID)
	tip := strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", "candidate/"+res.ID))
	msg := "publish: t1 (candidate " + res.ID + ")\n\nSkillgit-Action: publish\nSkillgit-Skill: t1\nSkillgit-Candidate: " + res.ID +
		"\nSkillgit-Change: create\nApproved-By: Security Team <security@example.com>"
	testenv.Git(t, dir, "merge", "-q", "--no-ff", "-m", msg, tip)
	st := step(t, dir, "HEAD")
	if st.Kind != ledger.KindCommit || !strings.Contains(st.Unverified, "Security Team") {
		t.Fatalf("forged approvers: kind %s, unverified %q", st.Kind, st.Unverified)
	}
	testenv.Git(t, dir, "reset", "-q", "--hard", "HEAD^")
	testenv.Git(t, dir, "merge", "-q", "--no-ff", "-m", "merge it", tip)
	if st := step(t, dir, "HEAD"); st.Kind != ledger.KindPublish || st.Via != "git merge" {
		t.Fatalf("a plain git merge of an approved tip: %+v", st)
	}
}

func TestInitPublish(t *testing.T) {
	testenv.Hermetic(t, nil)
	dir := filepath.Join(t.TempDir(), "repo")
	if _, err := initrepo.Init(initrepo.Options{Dir: dir, Pack: skills.FS(), PackName: "builtin", PackVersion: skills.Version}); err != nil {
		t.Fatal(err)
	}
	if st := step(t, dir, "main"); st.Kind != ledger.KindPublish || st.Via != "init" {
		t.Fatalf("init's publish: %+v", st)
	}
}

// TestCacheRecallsSteps: a ledger over a cache another ledger saved gives the same steps,
// without deriving them again; a damaged line is derived again.
func TestCacheRecallsSteps(t *testing.T) {
	h := newHistory(t)
	res, err := lifecycletest.Open(t, h.dir).Rollback("t1", "", lifecycletest.Lead)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gitstore.Open(h.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	cache := t.TempDir()
	hashes := []gitstore.Hash{plumbing.NewHash(h.publish), plumbing.NewHash(res.Commit)}
	first := ledger.New(ledger.StoreOf(g), "skills")
	first.UseCache(cache, true)
	var want []*ledger.Step
	for _, x := range hashes {
		st, err := first.Step(x)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, st)
	}
	first.Save()

	counting := &countingStore{Store: ledger.StoreOf(g)}
	second := ledger.New(counting, "skills")
	second.UseCache(cache, true)
	for i, x := range hashes {
		st, err := second.Step(x)
		if err != nil {
			t.Fatal(err)
		}
		if st.Kind != want[i].Kind || st.Via != want[i].Via || st.Undoes != want[i].Undoes || st.Unverified != want[i].Unverified || !cmp.Equal(st.Changes, want[i].Changes) {
			t.Errorf("step %s from the cache: %+v; derived: %+v", x, st, want[i])
		}
	}
	if counting.trees > 0 {
		t.Errorf("the cached steps read %d trees; want none", counting.trees)
	}
	checkDamagedLine(t, g, cache, hashes, want)
}

// checkDamagedLine damages the cache line of the last of hashes, as a crash that tore it would:
// a ledger over it derives that step again, the same as before, and its Save adds the line
// back whole, so that the next ledger recalls every step without reading a tree.
func checkDamagedLine(t *testing.T, g *gitstore.Repo, cache string, hashes []gitstore.Hash, want []*ledger.Step) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(cache, "ledger-*.txt"))
	if err != nil || len(files) != 1 {
		t.Fatalf("cache files %q: %v", files, err)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	last := hashes[len(hashes)-1].String()
	torn := regexp.MustCompile(`(?m)^(` + last + ` \S+ \S+).*$`)
	damaged := torn.ReplaceAllString(string(data), "$1")
	if damaged == string(data) {
		t.Fatalf("no line of %s in the cache:\n%s", last, data)
	}
	testenv.WriteFiles(t, cache, map[string]string{filepath.Base(files[0]): damaged})
	recall := func(name string, wantTrees bool) {
		t.Helper()
		counting := &countingStore{Store: ledger.StoreOf(g)}
		l := ledger.New(counting, "skills")
		l.UseCache(cache, true)
		for i, x := range hashes {
			st, err := l.Step(x)
			if err != nil {
				t.Fatal(err)
			}
			if st.Kind != want[i].Kind || st.Undoes != want[i].Undoes || !cmp.Equal(st.Changes, want[i].Changes) {
				t.Fatalf("%s: step %s: %+v; want %+v", name, x, st, want[i])
			}
		}
		if (counting.trees > 0) != wantTrees {
			t.Fatalf("%s read %d trees", name, counting.trees)
		}
		l.Save()
	}
	recall("the ledger over a torn line", true)
	recall("the ledger after it saved", false)
}

// countingStore counts the trees a ledger reads.
type countingStore struct {
	ledger.Store
	trees int
}

func (c *countingStore) ReadRawTree(h gitstore.Hash) (gitstore.RawTree, error) {
	c.trees++
	return c.Store.ReadRawTree(h)
}

func (c *countingStore) EntryAt(root gitstore.Hash, p string) (gitstore.TreeEntry, bool, error) {
	c.trees++
	return c.Store.EntryAt(root, p)
}
