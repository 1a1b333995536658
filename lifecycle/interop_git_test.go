package lifecycle

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
)

// trail is what `git log --first-parent --format=%s main` should print, newest first.
type trail struct {
	t     *testing.T
	dir   string
	lines []string
}

// step records a new commit on main, when subject is not empty, and checks the repository.
func (tr *trail) step(subject string) {
	tr.t.Helper()
	if subject != "" {
		tr.lines = append([]string{subject}, tr.lines...)
	}
	testenv.FsckStrict(tr.t, tr.dir)
	got := strings.Split(strings.TrimSuffix(testenv.GitText(tr.t, tr.dir, "log", "--first-parent", "--format=%s", "main"), "\n"), "\n")
	if diff := cmp.Diff(tr.lines, got); diff != "" {
		tr.t.Fatalf("git log --first-parent --format=%%s main (-want +got):\n%s", diff)
	}
}

// gitTrailers parses a commit's message with git interpret-trailers --parse.
func gitTrailers(t *testing.T, dir, commit string) map[string][]string {
	t.Helper()
	cmd := exec.Command("git", "-C", dir, "interpret-trailers", "--parse")
	cmd.Stdin = strings.NewReader(testenv.GitText(t, dir, "log", "-1", "--format=%B", commit))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git interpret-trailers --parse: %v", err)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		k, v, ok := strings.Cut(line, ": ")
		if !ok {
			t.Fatalf("git interpret-trailers --parse printed %q", line)
		}
		m[k] = append(m[k], v)
	}
	return m
}

// wantTrailers checks the trailers git parses from commit.
func wantTrailers(t *testing.T, dir, commit string, want map[string]string) {
	t.Helper()
	got := gitTrailers(t, dir, commit)
	for k, v := range want {
		if !slices.Equal(got[k], []string{v}) {
			t.Errorf("commit %.12s: git parses %s as %q; want [%q]\nall trailers: %v", commit, k, got[k], v, got)
		}
	}
}

// proposeNew proposes skill name with the given body lines from a folder outside the
// repository, as agent.
func proposeNew(t *testing.T, dir, name string, body ...string) *Result {
	t.Helper()
	res, err := proposeNewErr(t, dir, name, body...)
	if err != nil {
		t.Fatalf("propose %s: %v", name, err)
	}
	return res
}

// proposeNewErr proposes the skill name with body from a folder of its own, as an agent.
func proposeNewErr(t *testing.T, dir, name string, body ...string) (*Result, error) {
	t.Helper()
	src := t.TempDir()
	testenv.WriteFiles(t, src, map[string]string{name + "/SKILL.md": testenv.SkillMD(name, body...)})
	return open(t, dir).Propose(ProposeOptions{ActOptions: agent, From: filepath.Join(src, name)})
}

func approveAsLead(t *testing.T, dir, id string) {
	t.Helper()
	if _, err := open(t, dir).Approve(id, "reviewed", lead); err != nil {
		t.Fatalf("approve %s: %v", id, err)
	}
}

func logHead(t *testing.T, dir string) LogEntry {
	t.Helper()
	log, err := open(t, dir).Log("")
	if err != nil || len(log) == 0 {
		t.Fatalf("Log: %v, %d entries", err, len(log))
	}
	return log[0]
}

func candidateState(t *testing.T, dir, id string) *Candidate {
	t.Helper()
	c, err := open(t, dir).Book().Candidate(id)
	if err != nil {
		t.Fatalf("Candidate(%s): %v", id, err)
	}
	return c
}

func publishedIDs(t *testing.T, dir string) []string {
	t.Helper()
	cs, err := open(t, dir).Book().Candidates("published")
	if err != nil {
		t.Fatalf("Candidates(published): %v", err)
	}
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.ID+"="+string(c.State))
	}
	slices.Sort(ids)
	return ids
}

func TestInteropGitTrail(t *testing.T) {
	dir := newRepo(t)
	tr := &trail{t: t, dir: dir}
	tr.step("init: create skill repository")

	// alpha: proposed, approved and published by skillgit.
	alpha := proposeNew(t, dir, "alpha", cleanLine)
	tr.step("")
	wantTrailers(t, dir, alpha.Commit, map[string]string{
		"Skillgit-Action": "propose", "Skillgit-Skill": "alpha", "Skillgit-Candidate": alpha.ID,
		"Skillgit-Risk": "low", "Skillgit-Audit": alpha.Audit,
	})
	approveAsLead(t, dir, alpha.ID)
	tr.step("")
	pub, err := open(t, dir).Publish(alpha.ID, "", lead)
	if err != nil {
		t.Fatal(err)
	}
	tr.step("publish: alpha (candidate " + alpha.ID + ")")
	wantTrailers(t, dir, pub.Commit, map[string]string{
		"Skillgit-Action": "publish", "Skillgit-Skill": "alpha", "Skillgit-Candidate": alpha.ID,
		"Skillgit-Risk": "low", "Skillgit-Audit": pub.Audit, "Approved-By": lead.Author,
	})
	if !strings.HasPrefix(pub.Audit, "pass") {
		t.Errorf("publish audit trailer %q; want a pass", pub.Audit)
	}
	if e := logHead(t, dir); e.Action != actPublish || e.Via != "" || e.Candidate != alpha.ID || e.Commit != pub.Commit {
		t.Errorf("Log after skillgit publish: %+v", e)
	}

	// beta: published with git merge --no-ff in the working tree.
	beta := proposeNew(t, dir, "beta", cleanLine)
	approveAsLead(t, dir, beta.ID)
	tr.step("")
	testenv.Git(t, dir, "merge", "-q", "--no-ff", "--no-edit", "candidate/"+beta.ID)
	tr.step("Merge branch 'candidate/" + beta.ID + "'")
	merge := strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", "main"))
	e := logHead(t, dir)
	if e.Action != actPublish || e.Via != "git merge" || e.Candidate != beta.ID || e.Skill != "beta" || e.Commit != merge {
		t.Errorf("Log of a git merge of candidate/%s: %+v; want action publish via git merge", beta.ID, e)
	}
	if c := candidateState(t, dir, beta.ID); c.State != StatePublished || c.PublishedBy != merge {
		t.Errorf("Candidate(%s) after git merge: state %s, published by %q; want published by %s", beta.ID, c.State, c.PublishedBy, merge)
	}
	if got, want := publishedIDs(t, dir), []string{alpha.ID + "=published", beta.ID + "=published"}; !slices.Equal(got, want) {
		t.Errorf("Candidates(published) after git merge: %v; want %v", got, want)
	}

	// gamma: published with a squash merge.
	gamma := proposeNew(t, dir, "gamma", cleanLine)
	approveAsLead(t, dir, gamma.ID)
	tr.step("")
	testenv.Git(t, dir, "merge", "-q", "--squash", "candidate/"+gamma.ID)
	testenv.Git(t, dir, "commit", "-q", "-m", "squash gamma")
	tr.step("squash gamma")
	if c := candidateState(t, dir, gamma.ID); c.State != StatePublished {
		t.Errorf("Candidate(%s) after a squash merge: state %s; want published", gamma.ID, c.State)
	}
	if e := logHead(t, dir); e.Skill != "gamma" {
		t.Errorf("Log of the squash merge: %+v; want it to name gamma", e)
	}

	// git revert of skillgit's publish of alpha.
	testenv.Git(t, dir, "revert", "-m", "1", "--no-edit", pub.Commit)
	tr.step(`Revert "publish: alpha (candidate ` + alpha.ID + `)"`)
	revert := strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", "main"))
	e = logHead(t, dir)
	if e.Action != actRollback || e.Via != "git revert" || e.Skill != "alpha" || e.Commit != revert {
		t.Errorf("Log of `git revert -m 1 %s`: action %q via %q skill %q; want action rollback via git revert of alpha\nmessage:\n%s",
			pub.Commit, e.Action, e.Via, e.Skill, testenv.GitText(t, dir, "log", "-1", "--format=%B", revert))
	}
	if _, err := open(t, dir).Published().Find("alpha"); !errors.Is(err, ErrNotFound) {
		t.Errorf("alpha after the revert: %v; want not found", err)
	}
}

// checkout is what a user sees of their checkout: HEAD, the status, the index and a file.
type checkout struct {
	head, branch, status string
	index                []byte
	files                map[string]string // content and mtime of each watched file
}

func readCheckout(t *testing.T, dir string, watched ...string) checkout {
	t.Helper()
	c := checkout{files: map[string]string{}}
	for _, p := range append(watched, ".git/index") {
		fi, err := os.Stat(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		c.files[p] = fi.ModTime().Format(time.RFC3339Nano)
		if p == ".git/index" {
			c.index = data
		} else {
			c.files[p] += " " + string(data)
		}
	}
	c.head = testenv.GitText(t, dir, "rev-parse", "HEAD")
	c.branch = testenv.GitText(t, dir, "symbolic-ref", "HEAD")
	// Without optional locks, git status does not refresh the index it is asked about.
	c.status = testenv.GitText(t, dir, "--no-optional-locks", "status", "--porcelain", "--untracked-files=all")
	return c
}

func (c checkout) diff(t *testing.T, after checkout) {
	t.Helper()
	if c.head != after.head || c.branch != after.branch {
		t.Errorf("HEAD moved: %s %s -> %s %s", c.branch, c.head, after.branch, after.head)
	}
	if c.status != after.status {
		t.Errorf("git status changed:\nbefore:\n%s\nafter:\n%s", c.status, after.status)
	}
	if !bytes.Equal(c.index, after.index) {
		t.Errorf("the index was rewritten")
	}
	if diff := cmp.Diff(c.files, after.files); diff != "" {
		t.Errorf("watched files changed (-before +after):\n%s", diff)
	}
}

func TestInteropProposeLeavesCheckoutAlone(t *testing.T) {
	dir := newRepo(t)
	testenv.WriteFiles(t, dir, map[string]string{"notes.md": "notes\n"})
	testenv.CommitAll(t, dir, "notes")
	testenv.WriteFiles(t, dir, map[string]string{
		"notes.md":               "notes, edited and not committed\n",
		"scratch.txt":            "untracked\n",
		"staged.txt":             "staged\n",
		"skills/delta/SKILL.md":  testenv.SkillMD("delta", cleanLine),
		"skills/delta/guide.txt": "a file of the skill in the working tree\n",
	})
	testenv.Git(t, dir, "add", "staged.txt")
	old := time.Now().Add(-time.Hour)
	for _, p := range []string{"notes.md", "skills/delta/SKILL.md"} {
		if err := os.Chtimes(filepath.Join(dir, p), old, old); err != nil {
			t.Fatal(err)
		}
	}
	watched := []string{"notes.md", "scratch.txt", "staged.txt", "skills/delta/SKILL.md"}
	before := readCheckout(t, dir, watched...)
	if !strings.Contains(before.status, " M notes.md") || !strings.Contains(before.status, "A  staged.txt") ||
		!strings.Contains(before.status, "?? skills/delta/SKILL.md") {
		t.Fatalf("the checkout is not dirty as the test needs:\n%s", before.status)
	}

	fromWorktree := propose(t, dir, ProposeOptions{ActOptions: agent, Target: "skills/delta"})
	readCheckout(t, dir, watched...).diff(t, before)
	fromOutside := proposeNew(t, dir, "epsilon", cleanLine)
	readCheckout(t, dir, watched...).diff(t, before)
	testenv.FsckStrict(t, dir)

	for _, res := range []*Result{fromWorktree, fromOutside} {
		c := candidateState(t, dir, res.ID)
		if c.State != StateOpen || c.Change != ChangeCreate {
			t.Errorf("candidate %s: state %s, change %s; want an open create", res.ID, c.State, c.Change)
		}
	}
	files := testenv.GitText(t, dir, "ls-tree", "-r", "--name-only", "candidate/"+fromWorktree.ID, "skills/delta")
	if files != "skills/delta/SKILL.md\nskills/delta/guide.txt\n" {
		t.Errorf("candidate %s holds:\n%s", fromWorktree.ID, files)
	}
	if got := testenv.GitText(t, dir, "log", "--format=%s", "main"); got != "notes\ninit: create skill repository\n" {
		t.Errorf("main after the proposals:\n%s", got)
	}
}

func TestInteropPublishRefusesDirtySkill(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stage  bool
		status string
	}{
		{"modified", false, " M skills/beta/SKILL.md\n"},
		{"staged", true, "M  skills/beta/SKILL.md\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := newRepo(t)
			v1 := proposeNew(t, dir, "beta", cleanLine)
			approveAsLead(t, dir, v1.ID)
			if _, err := open(t, dir).Publish(v1.ID, "", lead); err != nil {
				t.Fatal(err)
			}
			v2 := proposeNew(t, dir, "beta", cleanLine, "Also print the time.")
			if v2.Change != ChangePatch {
				t.Fatalf("second proposal: %+v; want a patch", v2)
			}
			approveAsLead(t, dir, v2.ID)
			testenv.FsckStrict(t, dir)

			mine := testenv.SkillMD("beta", cleanLine, "My own local note.")
			testenv.WriteFiles(t, dir, map[string]string{"skills/beta/SKILL.md": mine})
			if tc.stage {
				testenv.Git(t, dir, "add", "skills/beta/SKILL.md")
			}
			before := readCheckout(t, dir, "skills/beta/SKILL.md")
			if before.status != tc.status {
				t.Fatalf("status before the publish %q; want %q", before.status, tc.status)
			}
			tip := testenv.GitText(t, dir, "rev-parse", "candidate/"+v2.ID)

			_, err := open(t, dir).Publish(v2.ID, "", lead)
			if err == nil || !strings.Contains(err.Error(), "skills/beta/SKILL.md") || !errors.Is(err, gitstore.ErrDirty) {
				t.Fatalf("publish over an uncommitted change: %v; want an ErrDirty error naming skills/beta/SKILL.md", err)
			}
			readCheckout(t, dir, "skills/beta/SKILL.md").diff(t, before)
			if got := testenv.GitText(t, dir, "rev-parse", "candidate/"+v2.ID); got != tip {
				t.Errorf("candidate moved from %s to %s", tip, got)
			}
			if c := candidateState(t, dir, v2.ID); c.State != StateApproved {
				t.Errorf("candidate after the refused publish: %s; want approved", c.State)
			}
			testenv.FsckStrict(t, dir)

			testenv.Git(t, dir, "reset", "-q", "--hard")
			pub, err := open(t, dir).Publish(v2.ID, "", lead)
			if err != nil {
				t.Fatalf("publish once the change is gone: %v", err)
			}
			testenv.FsckStrict(t, dir)
			if st := testenv.GitText(t, dir, "status", "--porcelain"); st != "" {
				t.Errorf("git status after the publish:\n%s", st)
			}
			data, err := os.ReadFile(filepath.Join(dir, "skills/beta/SKILL.md"))
			if err != nil || !strings.Contains(string(data), "Also print the time.") {
				t.Errorf("working tree after the publish: %v\n%s", err, data)
			}
			if head := strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", "main")); head != pub.Commit {
				t.Errorf("main is %s; want the publish %s", head, pub.Commit)
			}
		})
	}
}
