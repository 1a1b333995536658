package sshsig

import (
	"context"
	"testing"

	"github.com/skillgit/skillgit/internal/testenv"

	"golang.org/x/crypto/ssh"
)

// newKey makes an ed25519 key pair with ssh-keygen and returns the private key file and the
// newKey makes an ed25519 key pair; see testenv.SSHKey.
func newKey(t *testing.T, name string) (string, string) {
	t.Helper()
	return testenv.SSHKey(t, name)
}

func mustSign(t *testing.T, key string, payload string) string {
	t.Helper()
	sig, err := Sign(context.Background(), "", key, "git", []byte(payload))
	if err != nil {
		t.Fatal(err)
	}
	return sig
}

func parsePub(t *testing.T, line string) ssh.PublicKey {
	t.Helper()
	k, _, _, _, err := ssh.ParseAuthorizedKey([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	return k
}
