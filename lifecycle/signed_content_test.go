package lifecycle

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/testenv"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

var bob = ActOptions{Author: "Bob Builder <bob@example.com>"}

// gitCommitTree writes a commit with git commit-tree, as anyone with push access could: by
// who ("Name <email>"), dated date (now when zero), signed with key unless it is empty, with
// tree and msg on parents. It returns the commit's id.
func gitCommitTree(t *testing.T, dir, key, who string, date time.Time, tree, msg string, parents ...string) string {
	t.Helper()
	name, email, err := ParseActor(who)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"-C", dir, "-c", "gpg.format=ssh", "-c", "user.signingkey=" + key, "commit-tree"}
	if key != "" {
		args = append(args, "-S")
	}
	for _, p := range parents {
		args = append(args, "-p", p)
	}
	cmd := exec.Command("git", append(args, "-m", msg, tree)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME="+name, "GIT_AUTHOR_EMAIL="+email,
		"GIT_COMMITTER_NAME="+name, "GIT_COMMITTER_EMAIL="+email)
	if !date.IsZero() {
		d := date.Format(time.RFC3339)
		cmd.Env = append(cmd.Env, "GIT_AUTHOR_DATE="+d, "GIT_COMMITTER_DATE="+d)
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git commit-tree: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// forgeApproval puts on candidate id an approval by who made with git commit-tree, signed
// with key and dated date.
func forgeApproval(t *testing.T, dir, id, key, who string, date time.Time) {
	t.Helper()
	ref := "refs/heads/candidate/" + id
	msg := "approve: (candidate " + id + ")\n\n" + keyAction + ": " + actApprove + "\n" + keyCandidate + ": " + id + "\n" + keyApproved + ": " + who + "\n"
	h := gitCommitTree(t, dir, key, who, date, ref+"^{tree}", msg, ref)
	testenv.Git(t, dir, "update-ref", ref, h)
}

func rev(t *testing.T, dir, rev string) string {
	t.Helper()
	return strings.TrimSpace(testenv.GitText(t, dir, "rev-parse", rev))
}

// skillVersion writes a version of skill name whose body ends with line and returns its
// folder.
func skillVersion(t *testing.T, name, line string) string {
	t.Helper()
	src := t.TempDir()
	testenv.WriteFiles(t, src, map[string]string{name + "/SKILL.md": testenv.SkillMD(name, cleanLine, line)})
	return src + "/" + name
}

func TestContentNeedsSigningKey(t *testing.T) {
	dir, k := signedRepo(t, policy.DefaultAllowedSigners, nil)
	useKey(t, dir, "")
	_, err := open(t, dir).Propose(ProposeOptions{ActOptions: agent, From: skillVersion(t, "pdf-tools", "Version 1."), Message: "learned"})
	wantRefusal(t, "propose with no key", err, []string{"a proposal must be signed", "git config user.signingkey"})
	if refs := testenv.GitText(t, dir, "for-each-ref", "refs/heads/candidate/"); refs != "" {
		t.Fatalf("a refused proposal left a candidate: %s", refs)
	}
	id := proposeSigned(t, dir, k.agent, "pdf-tools")
	useKey(t, dir, "")
	_, err = open(t, dir).Revise(id, ProposeOptions{ActOptions: agent, From: skillVersion(t, "pdf-tools", "Version 2."), Message: "more"})
	wantRefusal(t, "revise with no key", err, []string{"a revision must be signed"})
	testenv.WriteFiles(t, dir, map[string]string{"skills/other/SKILL.md": testenv.SkillMD("other", cleanLine)})
	testenv.CommitAll(t, dir, "another skill")
	_, err = open(t, dir).Rebase(id, agent)
	wantRefusal(t, "rebase with no key", err, []string{"a rebase must be signed"})
	useKey(t, dir, k.agent)
	res, err := open(t, dir).Rebase(id, agent)
	if err != nil {
		t.Fatal(err)
	}
	c, err := open(t, dir).git.Objects().Commit(plumbing.NewHash(res.Commit))
	if err != nil || open(t, dir).book().VerifyCommit(c, time.Time{}) != nil {
		t.Fatalf("the rebase commit does not verify (%v)", err)
	}
}

// TestContentSignedInAnotherName is one signer alone trying to pass a change: Grace proposes
// in the agent's name with her own key, then approves. Nobody's approval counts until a
// verified revision replaces the content, and Grace, whose key signed it, never does.
func TestContentSignedInAnotherName(t *testing.T) {
	dir, k := signedRepo(t, policy.DefaultAllowedSigners, nil)
	useKey(t, dir, k.grace)
	res := propose(t, dir, ProposeOptions{ActOptions: agent, From: skillVersion(t, "pdf-tools", "Version 3."), Message: "as the agent"})
	id := res.ID
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "signature does not verify for agent@example.com") {
		t.Errorf("propose warnings %q; want one that the signature does not verify", res.Warnings)
	}
	c, err := open(t, dir).Book().Candidate(id)
	if err != nil {
		t.Fatal(err)
	}
	if c.AuthorVerified == nil || *c.AuthorVerified || !strings.Contains(c.Unverified, gitstore.ShortHash(res.Commit)) ||
		!strings.Contains(c.Unverified, "may not sign as agent@example.com") || !ledger.IsWriter(c.Writers, "GRACE@example.com") {
		t.Fatalf("author verified %v, unverified %q, writers %q; want the proposal unverified and Grace a writer", c.AuthorVerified, c.Unverified, c.Writers)
	}
	_, err = open(t, dir).Approve(id, "", lead)
	wantRefusal(t, "approve by Grace", err, []string{"has no verified signature", "skillgit revise " + id})
	useKey(t, dir, k.bob)
	_, err = open(t, dir).Approve(id, "", bob)
	wantRefusal(t, "approve by Bob", err, []string{"commit " + gitstore.ShortHash(res.Commit)})
	forgeApproval(t, dir, id, k.grace, "Grace Hopper <grace@example.com>", time.Time{})
	_, err = open(t, dir).Publish(id, "", lead)
	wantRefusal(t, "publish", err, []string{"no approval counts while commit " + gitstore.ShortHash(res.Commit)})

	testenv.Git(t, dir, "update-ref", "refs/heads/candidate/"+id, res.Commit)
	useKey(t, dir, k.agent)
	if _, err := open(t, dir).Revise(id, ProposeOptions{ActOptions: agent, From: skillVersion(t, "pdf-tools", "Version 4."), Message: "mine"}); err != nil {
		t.Fatal(err)
	}
	useKey(t, dir, k.grace)
	_, err = open(t, dir).Approve(id, "", lead)
	wantRefusal(t, "approve by Grace after the revision", err, []string{"wrote this candidate"})
	useKey(t, dir, k.bob)
	if _, err := open(t, dir).Approve(id, "", bob); err != nil {
		t.Fatal(err)
	}
	if _, err := open(t, dir).Publish(id, "", lead); err != nil {
		t.Fatalf("publish after a verified revision and Bob's approval: %v", err)
	}
}

// TestUnsignedContentBlocks keeps a candidate whose latest content commit carries no
// signature from being approved, and makes the author of that commit a writer once a verified
// revision replaces it.
func TestUnsignedContentBlocks(t *testing.T) {
	dir, k := signedRepo(t, policy.DefaultAllowedSigners, nil)
	id := proposeSigned(t, dir, k.agent, "pdf-tools")
	forger := open(t, dir)
	forger.cfg.Approvals.Signed = false
	slipped, err := forger.Revise(id, ProposeOptions{ActOptions: bob, From: skillVersion(t, "pdf-tools", "Version 5."), Message: "slipped in"})
	if err != nil {
		t.Fatal(err)
	}
	useKey(t, dir, k.grace)
	_, err = open(t, dir).Approve(id, "", lead)
	wantRefusal(t, "approve", err, []string{"commit " + gitstore.ShortHash(slipped.Commit), `"revise: pdf-tools" by Bob Builder <bob@example.com>`, "not signed"})
	useKey(t, dir, k.agent)
	if _, err := open(t, dir).Revise(id, ProposeOptions{ActOptions: agent, From: skillVersion(t, "pdf-tools", "Checked."), Message: "checked"}); err != nil {
		t.Fatal(err)
	}
	useKey(t, dir, k.bob)
	_, err = open(t, dir).Approve(id, "", bob)
	wantRefusal(t, "approve by the unsigned commit's author", err, []string{"wrote this candidate"})
	useKey(t, dir, k.grace)
	if _, err := open(t, dir).Approve(id, "", lead); err != nil {
		t.Fatal(err)
	}
	if _, err := open(t, dir).Publish(id, "", lead); err != nil {
		t.Fatal(err)
	}
}

// TestRebaseThatWritesContentMakesAWriter counts the signer of a commit that calls itself a
// rebase but changes the skill's folder among the candidate's writers.
func TestRebaseThatWritesContentMakesAWriter(t *testing.T) {
	dir, k := signedRepo(t, policy.DefaultAllowedSigners, nil)
	id := proposeSigned(t, dir, k.agent, "pdf-tools")
	ref := "refs/heads/candidate/" + id
	tip := rev(t, dir, ref)
	forger := open(t, dir)
	forger.cfg.Approvals.Signed = false
	if _, err := forger.Revise(id, ProposeOptions{ActOptions: bob, From: skillVersion(t, "pdf-tools", "Version 6."), Message: "x"}); err != nil {
		t.Fatal(err)
	}
	tree := rev(t, dir, ref+"^{tree}")
	msg := "rebase: pdf-tools (candidate " + id + ") onto main\n\n" + keyAction + ": " + actRebase + "\n" + keyCandidate + ": " + id + "\n"
	testenv.Git(t, dir, "update-ref", ref, gitCommitTree(t, dir, k.bob, "Bob Builder <bob@example.com>", time.Time{}, tree, msg, tip, rev(t, dir, "main")))
	useKey(t, dir, k.bob)
	_, err := open(t, dir).Approve(id, "", bob)
	wantRefusal(t, "approve by the rebase's signer", err, []string{"wrote this candidate"})
}

// TestApprovalDatedBeforeContent does not count an approval that claims to be older than the
// content it approves, though its signature verifies.
func TestApprovalDatedBeforeContent(t *testing.T) {
	dir, k := signedRepo(t, policy.DefaultAllowedSigners, nil)
	id := proposeSigned(t, dir, k.agent, "pdf-tools")
	forgeApproval(t, dir, id, k.bob, "Bob Builder <bob@example.com>", time.Now().Add(-time.Hour))
	c, err := open(t, dir).Book().Candidate(id)
	if err != nil {
		t.Fatal(err)
	}
	if a := c.Approvals[0]; a.Signed || a.Unverified != "dated before the content it approves" || c.State != StateOpen {
		t.Fatalf("state %s, approval %+v; want it not counted as dated before the content", c.State, a)
	}
	_, err = open(t, dir).Publish(id, "", lead)
	wantRefusal(t, "publish", err, []string{"Bob Builder <bob@example.com> (dated before the content it approves)"})
}

// TestExpiredKeyCheckedNow back-dates a whole candidate to when Carol's key was valid: her
// approval does not count now, and the candidate cannot be published; once a merge dated in
// that time published it, the approval shows as verified, as of that merge.
func TestExpiredKeyCheckedNow(t *testing.T) {
	dir, k := signedRepo(t, policy.DefaultAllowedSigners, nil)
	carolKey, carolPub := sshKey(t, "carol")
	f, err := os.OpenFile(dir+"/"+policy.DefaultAllowedSigners, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`carol@example.com valid-before="20200101Z" ` + carolPub + "\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	testenv.CommitAll(t, dir, "carol signs until 2020")
	id := proposeSigned(t, dir, k.agent, "pdf-tools")
	ref := "refs/heads/candidate/" + id
	msg := testenv.GitText(t, dir, "log", "-1", "--format=%B", ref)
	old := gitCommitTree(t, dir, k.agent, "Agent Smith <agent@example.com>", time.Date(2019, 5, 1, 0, 0, 0, 0, time.UTC),
		rev(t, dir, ref+"^{tree}"), msg, rev(t, dir, ref+"^"))
	testenv.Git(t, dir, "update-ref", ref, old)
	forgeApproval(t, dir, id, carolKey, "Carol <carol@example.com>", time.Date(2019, 6, 1, 0, 0, 0, 0, time.UTC))
	c, err := open(t, dir).Book().Candidate(id)
	if err != nil {
		t.Fatal(err)
	}
	if a := c.Approvals[0]; a.Signed || !strings.Contains(a.Unverified, "valid before") || c.Unverified != "" {
		t.Fatalf("approval %+v, content %q; want the approval unverified for the key's expiry and the content verified", a, c.Unverified)
	}
	_, err = open(t, dir).Publish(id, "", lead)
	wantRefusal(t, "publish", err, []string{"Carol <carol@example.com> (key SHA256:", "valid before"})

	cmd := exec.Command("git", "-C", dir, "merge", "-q", "--no-ff", "-m", "publish: pdf-tools", ref)
	cmd.Env = append(os.Environ(), "GIT_COMMITTER_DATE=2019-07-01T00:00:00Z", "GIT_AUTHOR_DATE=2019-07-01T00:00:00Z")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git merge: %v\n%s", err, out)
	}
	c, err = open(t, dir).Book().Candidate(id)
	if err != nil {
		t.Fatal(err)
	}
	if a := c.Approvals[0]; !a.Signed || c.State != StatePublished {
		t.Fatalf("state %s, approval %+v; want it published and verified as of its merge", c.State, a)
	}
}

func TestApprovedEnoughUnverifiedContent(t *testing.T) {
	cfg := policy.DefaultConfig("main")
	cfg.Approvals.Signed = true
	grace := Approval{Who: Actor{Name: "Grace Hopper", Email: "grace@example.com"}, Signed: true, Signer: "grace@example.com"}
	c := &Candidate{ID: "pdf-tools-0a1b", Risk: "low", Approvals: []Approval{grace}, Unverified: "commit 0123456789ab has no verified signature: not signed"}
	ok, why := ledger.ApprovedEnough(cfg, c, nil)
	if ok || !strings.Contains(why, "no approval counts while commit 0123456789ab") || !strings.Contains(why, "skillgit revise pdf-tools-0a1b") {
		t.Errorf("ledger.ApprovedEnough = %v, %q; want no, naming the commit and the revision", ok, why)
	}
	c.Change = ChangePolicy
	if _, why := ledger.ApprovedEnough(cfg, c, nil); !strings.Contains(why, "skillgit propose --config") {
		t.Errorf("policy candidate: %q; want the advice to propose again", why)
	}
	cfg.Approvals.Signed = false
	if ok, why := ledger.ApprovedEnough(cfg, c, nil); !ok {
		t.Errorf("without signed approvals: %q; want approved", why)
	}
}

func TestIsWriterPatterns(t *testing.T) {
	writers := []string{"agent@example.com", "*@ops.example.com"}
	for email, want := range map[string]bool{"AGENT@example.com": true, "eve@ops.example.com": true, "eve@example.com": false} {
		if got := ledger.IsWriter(writers, email); got != want {
			t.Errorf("ledger.IsWriter(%q) = %v", email, got)
		}
	}
}
