package testenv

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// GitDaemon serves the bare repositories below base with `git daemon` on a free loopback
// port until t ends, and returns the URL prefix git://127.0.0.1:PORT/. They are read-only
// unless options, given to the daemon, say otherwise (--enable=receive-pack). Each
// repository's own configuration applies, such as uploadpack.allowFilter. The daemon runs
// in a process group of its own, which the cleanup ends: git starts git-daemon as a child,
// and ending git alone would leave it running.
func GitDaemon(t testing.TB, base string, options ...string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	logs, err := os.Create(filepath.Join(t.TempDir(), "daemon.log"))
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"daemon", "--listen=127.0.0.1", fmt.Sprintf("--port=%d", port), "--reuseaddr",
		"--export-all", "--base-path=" + base}, options...)
	cmd := exec.Command("git", append(args, base)...)
	cmd.Stdout, cmd.Stderr = logs, logs
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatalf("git daemon: %v", err)
	}
	t.Cleanup(func() {
		killGroup(cmd)
		cmd.Wait()
		logs.Close()
	})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return "git://" + addr + "/"
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(logs.Name())
			t.Fatalf("git daemon does not accept connections on %s: %v\n%s", addr, err, b)
		}
	}
}
