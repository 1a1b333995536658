package hooks_test

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillgit/skillgit/internal/testenv"
)

// TestPreReceiveOverGitDaemon pushes to a bare skill repository served by git daemon on
// loopback: its pre-receive hook, installed by skillgit init, accepts benign pushes, refuses
// malicious ones, and reads the skip switch from the old tip of the branch, never from the
// pushed commits.
func TestPreReceiveOverGitDaemon(t *testing.T) {
	h := newHarness(t)
	srv := filepath.Join(h.dir, "srv.git")
	h.must(h.dir, "skillgit", "init", "--bare", srv)
	shim, err := os.ReadFile(filepath.Join(srv, "hooks", "pre-receive"))
	if err != nil || !strings.Contains(string(shim), "# skillgit-hook-shim") {
		t.Fatalf("skillgit init --bare did not install the pre-receive shim: %v\n%s", err, shim)
	}
	url := startGitDaemon(t, h, h.dir) + "/srv.git"
	client := filepath.Join(h.dir, "client")
	h.cloneServer(url, client)

	serverMain := func() string { return h.git(srv, "rev-parse", "refs/heads/main") }
	commit := func(msg string, files map[string]string) string {
		t.Helper()
		testenv.WriteFiles(t, client, files)
		h.git(client, "add", "-A")
		h.git(client, "commit", "-q", "-m", msg)
		return h.git(client, "rev-parse", "HEAD")
	}
	push := func() result {
		t.Helper()
		return h.run(client, "", nil, "git", "push", "origin", "main")
	}
	refused := func(what string, evilCommit string) {
		t.Helper()
		before := serverMain()
		res := push()
		if res.code == 0 {
			t.Fatalf("%s: the push was accepted:\n%s", what, res.stderr)
		}
		for _, want := range []string{"remote: skillgit: push refused: refs/heads/main",
			"remote: skillgit: evil: skills/evil/SKILL.md:5 SG-EXE-005", "pre-receive hook declined"} {
			if !strings.Contains(res.stderr, want) {
				t.Errorf("%s: push output lacks %q:\n%s", what, want, res.stderr)
			}
		}
		if got := serverMain(); got != before {
			t.Errorf("%s: the server's main moved from %s to %s", what, before, got)
		}
		// The refused objects stayed in the push's quarantine, which git dropped.
		if r := h.run(srv, "", nil, "git", "cat-file", "-e", evilCommit); r.code == 0 {
			t.Errorf("%s: the server stored the refused commit %s", what, evilCommit)
		}
		h.git(client, "reset", "-q", "--hard", "origin/main")
	}

	good := commit("add good", map[string]string{"skills/good/SKILL.md": goodSkill("good")})
	if res := push(); res.code != 0 {
		t.Fatalf("push of a benign skill: exit %d\n%s", res.code, res.stderr)
	}
	if got := serverMain(); got != good {
		t.Fatalf("after the benign push the server's main is %s, want %s", got, good)
	}

	evil := commit("add evil", map[string]string{"skills/evil/SKILL.md": evilSkill("evil")})
	refused("malicious skill", evil)

	// One push that turns the switch on and adds a malicious skill: the switch of the old
	// tip, off, decides.
	turnSkipSwitchOn(t, client)
	commit("skip the audit", nil)
	evil = commit("add evil", map[string]string{"skills/evil/SKILL.md": evilSkill("evil")})
	refused("switch and malicious skill in one push", evil)

	// Once the switch is on the server, a later push is let through, with the warning.
	turnSkipSwitchOn(t, client)
	skip := commit("skip the audit", nil)
	if res := push(); res.code != 0 {
		t.Fatalf("push that turns the skip switch on: exit %d\n%s", res.code, res.stderr)
	}
	if got := serverMain(); got != skip {
		t.Fatalf("after the switch push the server's main is %s, want %s", got, skip)
	}
	evil = commit("add evil", map[string]string{"skills/evil/SKILL.md": evilSkill("evil")})
	res := push()
	if res.code != 0 {
		t.Fatalf("push of a malicious skill with the switch on the server: exit %d\n%s", res.code, res.stderr)
	}
	warning := "remote: skillgit: warning: security audit skipped because .skillgit.yaml sets audit.skip_security_audit: true"
	if !strings.Contains(res.stderr, warning) {
		t.Errorf("push output lacks the skip warning %q:\n%s", warning, res.stderr)
	}
	if got := serverMain(); got != evil {
		t.Errorf("the server's main is %s, want the pushed %s", got, evil)
	}
}

// startGitDaemon serves the repositories under base with git daemon on a free loopback port,
// pushes enabled, and returns the URL of base. The daemon stops when the test ends.
func startGitDaemon(t *testing.T, h *harness, base string) string {
	t.Helper()
	var lastErr error
	for range 5 {
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		url, err := tryGitDaemon(t, h, base, port)
		if err == nil {
			return url
		}
		lastErr = err
	}
	t.Fatalf("git daemon did not start: %v", lastErr)
	return ""
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// syncBuffer is a bytes.Buffer that a process writes to while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// tryGitDaemon starts git daemon on port and waits, for a bounded time, until it accepts
// connections; it fails when the daemon exits first, as it does when the port is taken.
func tryGitDaemon(t *testing.T, h *harness, base string, port int) (string, error) {
	t.Helper()
	// git runs git-daemon as a child process, so killing `git daemon` would leave the server
	// running: the test starts git-daemon itself.
	daemon := filepath.Join(h.git(base, "--exec-path"), "git-daemon")
	cmd := exec.Command(daemon, "--reuseaddr", "--listen=127.0.0.1", "--port="+strconv.Itoa(port),
		"--base-path="+base, "--export-all", "--enable=receive-pack", "--informative-errors", base)
	cmd.Env = h.env
	logs := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		return "", err
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	stop := func() {
		cmd.Process.Kill()
		<-exited
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	deadline := time.Now().Add(10 * time.Second)
	for {
		select {
		case <-exited:
			return "", fmt.Errorf("git daemon on port %d exited: %s", port, logs.String())
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			t.Cleanup(func() {
				stop()
				if t.Failed() {
					t.Logf("git daemon log:\n%s", logs.String())
				}
			})
			return "git://" + addr, nil
		}
		if time.Now().After(deadline) {
			stop()
			return "", fmt.Errorf("git daemon on port %d did not accept connections within 10s: %s", port, logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
