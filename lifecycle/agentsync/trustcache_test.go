package agentsync

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"

	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// TestProofCacheRoundTrip checks that the proofs a sync adds are read back by the next one
// under the same trust, that another allowed-signers file or count reads none of them, and
// that damaged lines are skipped without losing the others.
func TestProofCacheRoundTrip(t *testing.T) {
	dir := t.TempDir()
	signers := []byte("grace@example.com namespaces=\"git\" ssh-ed25519 AAAA\n")
	p1 := ledger.InstallProof{Publish: plumbing.NewHash(strings.Repeat("1", 40)), Root: plumbing.NewHash(strings.Repeat("2", 40)),
		Approvers: []string{"grace@example.com"}, Keys: []string{"SHA256:abc"}}
	p2 := ledger.InstallProof{Publish: plumbing.NewHash(strings.Repeat("3", 40)), Root: plumbing.NewHash(strings.Repeat("4", 40)),
		Approvers: []string{"grace@example.com", "bob@example.com"}, Keys: []string{"SHA256:abc", "SHA256:def"}}
	pc := openProofCache(dir, signers, 1)
	pc.add(p1)
	pc.add(p2)
	pc.add(ledger.InstallProof{Publish: plumbing.NewHash(strings.Repeat("5", 40)), Approvers: []string{"a b"}, Keys: []string{"k"}})
	pc.save()

	again := openProofCache(dir, signers, 1)
	if diff := cmp.Diff(map[plumbing.Hash]ledger.InstallProof{p1.Publish: p1, p2.Publish: p2}, again.known); diff != "" {
		t.Fatalf("proofs read back (-want +got):\n%s", diff)
	}
	if n := len(openProofCache(dir, append(signers, '\n'), 1).known); n != 0 {
		t.Errorf("another allowed-signers file reads %d proofs, want none", n)
	}
	if n := len(openProofCache(dir, signers, 2).known); n != 0 {
		t.Errorf("another approval count reads %d proofs, want none", n)
	}

	data, err := os.ReadFile(again.file)
	if err != nil {
		t.Fatal(err)
	}
	damaged := "garbage line\n" + strings.Repeat("9", 40) + " short\n" + string(data)
	if err := os.WriteFile(again.file, []byte(damaged), 0o600); err != nil {
		t.Fatal(err)
	}
	if n := len(openProofCache(dir, signers, 1).known); n != 2 {
		t.Errorf("%d proofs read past damaged lines, want 2", n)
	}
	if filepath.Dir(filepath.Dir(again.file)) != filepath.Join(dir, "skillgit", "cache") {
		t.Errorf("cache file %s is not under the git folder's skillgit cache", again.file)
	}
}
