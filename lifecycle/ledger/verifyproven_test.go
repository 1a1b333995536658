package ledger

import (
	"crypto/ed25519"
	"crypto/rand"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/skillgit/skillgit/internal/sshsig"
)

// TestProofHolds checks when a proof made earlier may stand for a publish again: only while
// the project's file still lets every key sign for its approver, at install time when that is
// given, and while the approvers are enough and distinct.
func TestProofHolds(t *testing.T) {
	key := func() ssh.PublicKey {
		pub, _, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		k, err := ssh.NewPublicKey(pub)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	grace, bob := key(), key()
	line := func(who, opts string, k ssh.PublicKey) string {
		return who + " " + opts + " " + strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k))) + "\n"
	}
	file := line("grace@example.com", `namespaces="git"`, grace) + line("bob@example.com", `namespaces="git",valid-before="20200101"`, bob)
	signers, err := sshsig.ParseAllowedSigners([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	fp := ssh.FingerprintSHA256
	proof := func(who []string, keys ...ssh.PublicKey) InstallProof {
		p := InstallProof{Approvers: who}
		for _, k := range keys {
			p.Keys = append(p.Keys, fp(k))
		}
		return p
	}
	tr := Trust{Signers: signers, Need: 1}
	now := tr
	now.Now = time.Now()
	tests := []struct {
		name  string
		trust Trust
		p     InstallProof
		want  bool
	}{
		{"grace's key", tr, proof([]string{"grace@example.com"}, grace), true},
		{"grace's key at install time", now, proof([]string{"grace@example.com"}, grace), true},
		{"bob's key, ended in 2020", now, proof([]string{"bob@example.com"}, bob), false},
		{"grace's key for bob", tr, proof([]string{"bob@example.com"}, grace), false},
		{"a key the file does not list", tr, proof([]string{"grace@example.com"}, key()), false},
		{"too few approvers", Trust{Signers: signers, Need: 2}, proof([]string{"grace@example.com"}, grace), false},
		{"one approver twice", Trust{Signers: signers, Need: 2}, proof([]string{"grace@example.com", "grace@example.com"}, grace, grace), false},
		{"keys and approvers unpaired", tr, proof([]string{"grace@example.com"}), false},
	}
	for _, tt := range tests {
		if got := tt.trust.holds(tt.p); got != tt.want {
			t.Errorf("%s: holds = %v, want %v", tt.name, got, tt.want)
		}
	}
}
