package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// SSHKey makes an ed25519 key pair with the real ssh-keygen, without a passphrase, and returns
// the private key file and the public key line. name is the file name and the key's comment.
func SSHKey(t testing.TB, name string) (string, string) {
	t.Helper()
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Fatal("ssh-keygen is needed; scripts/test.sh installs it")
	}
	path := filepath.Join(t.TempDir(), name)
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", path).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v: %s", err, out)
	}
	pub, err := os.ReadFile(path + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	return path, strings.TrimSpace(string(pub))
}

// SSHAgent starts the real ssh-agent on a socket of its own until the test ends, adds the
// private key files keys to it with ssh-add, and returns the socket, for SSH_AUTH_SOCK.
func SSHAgent(t testing.TB, keys ...string) string {
	t.Helper()
	if _, err := exec.LookPath("ssh-agent"); err != nil {
		t.Fatal("ssh-agent is needed; scripts/test.sh installs openssh-client")
	}
	sock := filepath.Join(t.TempDir(), "agent.sock")
	agent := exec.Command("ssh-agent", "-D", "-a", sock)
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { agent.Process.Kill(); agent.Wait() })
	for i := 0; i < 100; i++ {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, key := range keys {
		add := exec.Command("ssh-add", "-q", key)
		add.Env = append(os.Environ(), "SSH_AUTH_SOCK="+sock)
		if out, err := add.CombinedOutput(); err != nil {
			t.Fatalf("ssh-add: %v: %s", err, out)
		}
	}
	return sock
}
