package hooks_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
)

// TestPreReceiveTagsOverGitDaemon pushes tags to a bare skill repository served by git daemon
// with skillgit's pre-receive hook: an annotated tag of an audited commit is accepted, one of a
// commit that brings a malicious skill is refused like a branch would be, lightweight tags keep
// working, and a tag can be deleted. The pre-push hook judges tags the same way.
func TestPreReceiveTagsOverGitDaemon(t *testing.T) {
	h := newHarness(t)
	srv := filepath.Join(h.dir, "srv.git")
	h.must(h.dir, "skillgit", "init", "--bare", srv)
	url := startGitDaemon(t, h, h.dir) + "/srv.git"
	client := filepath.Join(h.dir, "client")
	h.cloneServer(url, client)
	commit := func(msg string, files map[string]string) string {
		t.Helper()
		testenv.WriteFiles(t, client, files)
		h.git(client, "add", "-A")
		h.git(client, "commit", "-q", "-m", msg)
		return h.git(client, "rev-parse", "HEAD")
	}
	push := func(args ...string) result {
		t.Helper()
		return h.run(client, "", nil, "git", append([]string{"push", "origin"}, args...)...)
	}
	serverRef := func(ref string) string {
		t.Helper()
		res := h.run(srv, "", nil, "git", "rev-parse", "-q", "--verify", ref)
		return strings.TrimSpace(res.stdout)
	}
	accepted := func(what, ref string, args ...string) {
		t.Helper()
		if res := push(args...); res.code != 0 {
			t.Fatalf("%s: exit %d\n%s", what, res.code, res.stderr)
		}
		if want := h.git(client, "rev-parse", ref); serverRef(ref) != want {
			t.Fatalf("%s: the server's %s is %q, want %s", what, ref, serverRef(ref), want)
		}
	}

	commit("add good", map[string]string{"skills/good/SKILL.md": goodSkill("good")})
	accepted("push of a benign skill", "refs/heads/main", "main")

	h.git(client, "tag", "-a", "-m", "release 1", "v1")
	accepted("annotated tag of an audited commit", "refs/tags/v1", "refs/tags/v1")

	h.git(client, "tag", "-a", "-m", "a tag of a tag", "v1-again", "v1")
	accepted("annotated tag of an annotated tag", "refs/tags/v1-again", "refs/tags/v1-again")

	h.git(client, "tag", "light")
	accepted("lightweight tag", "refs/tags/light", "refs/tags/light")

	commit("add good2", map[string]string{"skills/good2/SKILL.md": goodSkill("good2")})
	h.git(client, "tag", "-a", "-m", "release 2", "v2")
	accepted("annotated tag of a benign commit the server lacks", "refs/tags/v2", "refs/tags/v2")

	// On a branch of its own: the pre-push hook audits from the local publish branch.
	h.git(client, "checkout", "-q", "-b", "side", "origin/main")
	evil := commit("add evil", map[string]string{"skills/evil/SKILL.md": evilSkill("evil")})
	for _, kind := range [][]string{{"-a", "-m", "evil release"}, {}} {
		h.git(client, append(append([]string{"tag", "-f"}, kind...), "bad")...)
		res := push("refs/tags/bad")
		if res.code == 0 {
			t.Fatalf("tag %v of a malicious commit: the push was accepted:\n%s", kind, res.stderr)
		}
		for _, want := range []string{"remote: skillgit: push refused: refs/tags/bad",
			"remote: skillgit: evil: skills/evil/SKILL.md:5 SG-EXE-005", "pre-receive hook declined"} {
			if !strings.Contains(res.stderr, want) {
				t.Errorf("tag %v of a malicious commit: push output lacks %q:\n%s", kind, want, res.stderr)
			}
		}
		if got := serverRef("refs/tags/bad"); got != "" {
			t.Errorf("tag %v of a malicious commit: the server holds refs/tags/bad at %s", kind, got)
		}
		if r := h.run(srv, "", nil, "git", "cat-file", "-e", evil); r.code == 0 {
			t.Errorf("tag %v of a malicious commit: the server stored the commit %s", kind, evil)
		}
	}

	// The pre-push hook audits a tag the same way, before git sends anything.
	h.must(client, "skillgit", "hooks", "install")
	h.git(client, "tag", "-a", "-m", "evil again", "bad2", evil)
	res := push("refs/tags/bad2")
	if res.code == 0 || !strings.Contains(res.stderr, "skillgit: push refused: refs/tags/bad2") || strings.Contains(res.stderr, "remote:") {
		t.Errorf("pre-push of an annotated tag of a malicious commit: exit %d, want a refusal here:\n%s", res.code, res.stderr)
	}
	h.git(client, "tag", "-a", "-m", "release 3", "v3", "origin/main")
	accepted("pre-push of an annotated tag of an audited commit", "refs/tags/v3", "refs/tags/v3")

	for _, tag := range []string{"v1", "light"} {
		if res := push("--delete", "refs/tags/"+tag); res.code != 0 {
			t.Fatalf("deleting tag %s: exit %d\n%s", tag, res.code, res.stderr)
		}
		if got := serverRef("refs/tags/" + tag); got != "" {
			t.Errorf("after deleting tag %s the server still holds it at %s", tag, got)
		}
	}
}
