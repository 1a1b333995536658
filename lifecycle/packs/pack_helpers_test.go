package packs

import (
	"fmt"
	"net"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillgit/skillgit/internal/testenv"
)

// packSource creates a git repository at base/name with the given files, committed on main.
func packSource(t *testing.T, base, name string, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(base, name)
	testenv.Git(t, base, "init", "-q", "-b", "main", name)
	testenv.WriteFiles(t, dir, files)
	testenv.CommitAll(t, dir, "pack: first version")
	return dir
}

// gitDaemon serves every repository below base over git:// on a free loopback port until the
// test ends, and returns the URL prefix git://127.0.0.1:PORT.
func gitDaemon(t *testing.T, base string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	// The git wrapper runs git-daemon as a child: a process group of its own lets the
	// cleanup stop both.
	cmd := exec.Command("git", "daemon", "--listen=127.0.0.1", fmt.Sprintf("--port=%d", port), "--reuseaddr",
		"--export-all", "--informative-errors", "--base-path="+base, base)
	logs, err := os.Create(filepath.Join(t.TempDir(), "daemon.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logs.Close()
	cmd.Stdout, cmd.Stderr = logs, logs
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		killGroup(cmd)
		<-done
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return "git://" + addr
		}
		select {
		case <-done:
			t.Fatalf("git daemon exited: %s", readFile(t, logs.Name()))
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("git daemon does not accept connections on %s: %v\n%s", addr, err, readFile(t, logs.Name()))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// gitHTTP serves every repository below base with git http-backend behind net/http/cgi on a
// loopback port until the test ends, and returns the URL prefix http://127.0.0.1:PORT.
func gitHTTP(t *testing.T, base string) string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	h := &cgi.Handler{Path: git, Args: []string{"http-backend"}, Env: []string{"GIT_PROJECT_ROOT=" + base, "GIT_HTTP_EXPORT_ALL=1"}}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// refsOf lists every ref of the repository with its value.
func refsOf(t *testing.T, dir string) string {
	t.Helper()
	return testenv.GitIn(t, dir, nil, "for-each-ref", "--format=%(refname) %(objectname)")
}

// objectCount is how many objects the repository holds, loose and packed.
func objectCount(t *testing.T, dir string) string {
	t.Helper()
	out := testenv.GitIn(t, dir, nil, "count-objects", "-v")
	var keep []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "count:") || strings.HasPrefix(line, "in-pack:") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, " ")
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
