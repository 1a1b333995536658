package sshsig

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestSignWithAgentLiteralKey signs with a literal key:: public key whose private key is in
// an ssh-agent, as git does with such a user.signingkey.
func TestSignWithAgentLiteralKey(t *testing.T) {
	if _, err := exec.LookPath("ssh-agent"); err != nil {
		t.Fatal("ssh-agent is needed; scripts/test.sh installs openssh-client")
	}
	key, pub := newKey(t, "agent-held")
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
	t.Setenv("SSH_AUTH_SOCK", sock)
	if out, err := exec.Command("ssh-add", "-q", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-add: %v: %s", err, out)
	}
	if err := os.Remove(key); err != nil {
		t.Fatal(err)
	}
	armored, err := Sign(t.Context(), "", "key::"+pub, "git", []byte("payload"))
	if err != nil {
		t.Fatal(err)
	}
	sig, err := Parse([]byte(armored))
	if err != nil || sig.Verify([]byte("payload"), "git") != nil {
		t.Fatalf("the agent's signature does not verify: %v", err)
	}
}
