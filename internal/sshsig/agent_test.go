package sshsig

import (
	"os"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"
)

// TestSignWithAgentLiteralKey signs with a literal key:: public key whose private key is in
// an ssh-agent, as git does with such a user.signingkey.
func TestSignWithAgentLiteralKey(t *testing.T) {
	key, pub := newKey(t, "agent-held")
	t.Setenv("SSH_AUTH_SOCK", testenv.SSHAgent(t, key))
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
