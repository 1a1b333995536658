package hooks_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
)

// TestSkillgitPushGateOverGitDaemon pushes candidates with `skillgit push` to a bare skill
// repository served by git daemon with skillgit's pre-receive hook: a candidate with a high
// finding is refused here, before anything is sent, with the findings and exit 3; with the
// skip switch on it is sent, and the server's refusal is printed as the server wrote it, with
// advice that fits; a benign candidate goes through.
func TestSkillgitPushGateOverGitDaemon(t *testing.T) {
	h := newHarness(t)
	srv := filepath.Join(h.dir, "srv.git")
	h.must(h.dir, "skillgit", "init", "--bare", srv)
	url := startGitDaemon(t, h, h.dir) + "/srv.git"
	client := filepath.Join(h.dir, "client")
	h.cloneServer(url, client)
	testenv.WriteFiles(t, h.dir, map[string]string{
		"drafts/evil/SKILL.md": evilSkill("evil"), "drafts/good/SKILL.md": goodSkill("good"),
	})
	h.must(client, "skillgit", "propose", filepath.Join(h.dir, "drafts", "evil"))
	evilRef := strings.TrimSpace(h.git(client, "for-each-ref", "--format=%(refname)", "refs/heads/candidate/"))
	if !strings.HasPrefix(evilRef, "refs/heads/candidate/") || strings.Contains(evilRef, "\n") {
		t.Fatalf("candidate refs after one propose: %q", evilRef)
	}
	evilID := strings.TrimPrefix(evilRef, "refs/heads/candidate/")
	evilTip := h.git(client, "rev-parse", evilRef)
	onServer := func(what string) {
		t.Helper()
		if r := h.run(srv, "", nil, "git", "rev-parse", "-q", "--verify", evilRef); r.code == 0 {
			t.Errorf("%s: the server holds %s", what, evilRef)
		}
		if r := h.run(srv, "", nil, "git", "cat-file", "-e", evilTip); r.code == 0 {
			t.Errorf("%s: the server stored the candidate's commit %s", what, evilTip)
		}
	}
	expect := func(what string, res result, code int, want, unwanted []string) {
		t.Helper()
		if res.code != code {
			t.Errorf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", what, res.code, code, res.stdout, res.stderr)
		}
		for _, s := range want {
			if !strings.Contains(res.stderr, s) {
				t.Errorf("%s: stderr lacks %q:\n%s", what, s, res.stderr)
			}
		}
		for _, s := range unwanted {
			if strings.Contains(res.stderr, s) {
				t.Errorf("%s: stderr holds %q:\n%s", what, s, res.stderr)
			}
		}
	}

	res := h.run(client, "", nil, "skillgit", "push")
	expect("push of a high-risk candidate", res, 3, []string{
		"skillgit: push refused: " + evilRef,
		"  evil: skills/evil/SKILL.md:5 SG-EXE-005",
		"skillgit: details: skillgit audit --rev ",
		"push to origin refused: the audit rates " + evilRef,
		"nothing was sent", "`skillgit review ID`", evilID,
	}, []string{"remote:", "skillgit fetch"})
	onServer("push refused here")

	res = h.run(client, "", []string{"SKILLGIT_SKIP_SECURITY_AUDIT=1"}, "skillgit", "push")
	expect("push of a high-risk candidate with the skip switch on here", res, 3, []string{
		"warning: security audit skipped because SKILLGIT_SKIP_SECURITY_AUDIT=1",
		"refused by the server, nothing was pushed",
		"remote: skillgit: push refused: " + evilRef,
		"remote: skillgit: evil: skills/evil/SKILL.md:5 SG-EXE-005",
		"remote: skillgit: details: skillgit audit --rev ",
		"the server's audit refused it", "`skillgit review ID`", "then run `skillgit push origin` again",
	}, []string{"skillgit fetch"})
	onServer("push refused by the server")

	h.git(client, "update-ref", "-d", evilRef)
	h.must(client, "skillgit", "propose", filepath.Join(h.dir, "drafts", "good"))
	res = h.run(client, "", nil, "skillgit", "push")
	expect("push of a benign candidate", res, 0, nil, []string{"refused", "warning"})
	if !strings.Contains(res.stdout, "origin: pushed candidate/") {
		t.Errorf("push of a benign candidate: stdout lacks the pushed candidate:\n%s", res.stdout)
	}
	if _, err := os.Stat(srv); err != nil {
		t.Fatal(err)
	}
}
