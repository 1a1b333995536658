package gitstore

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestWriteSignedCommit(t *testing.T) {
	r := diskRepo(false)(t)
	tree := mustTree(t, r)
	var payload []byte
	sig := "-----BEGIN SSH SIGNATURE-----\nabc\n-----END SSH SIGNATURE-----\n"
	h, err := r.Writes().WriteCommit(CommitSpec{Tree: tree, Author: testSig, Committer: testSig, Message: "signed\n",
		Sign: func(p []byte) (string, error) { payload = p; return sig, nil }})
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Objects().Commit(h)
	if err != nil {
		t.Fatal(err)
	}
	if c.PGPSignature != sig {
		t.Errorf("signature read back = %q, want %q", c.PGPSignature, sig)
	}
	obj := &plumbing.MemoryObject{}
	if err := c.EncodeWithoutSignature(obj); err != nil {
		t.Fatal(err)
	}
	rd, _ := obj.Reader()
	want, err := io.ReadAll(rd)
	if err != nil || string(want) != string(payload) {
		t.Errorf("signed payload %q, want the commit without its signature %q", payload, want)
	}
	gitRun(t, r.GitDir(), "cat-file", "-e", h.String())
}

func TestConfigValue(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "xdg"))
	t.Setenv("GIT_CONFIG_GLOBAL", "")
	r := diskRepo(false)(t)
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tsigningKey = ~/.ssh/id\n[gpg \"ssh\"]\n\tprogram = /bin/sign\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ section, sub, key, want string }{
		{"user", "", "signingkey", "~/.ssh/id"}, {"gpg", "ssh", "program", "/bin/sign"}, {"gpg", "", "format", ""},
	} {
		if got, err := r.ConfigValue(tc.section, tc.sub, tc.key); err != nil || got != tc.want {
			t.Errorf("ConfigValue(%s, %s, %s) = %q, %v; want %q", tc.section, tc.sub, tc.key, got, err, tc.want)
		}
	}
	gitRun(t, r.GitDir(), "config", "user.signingkey", "key::ssh-ed25519 AAAA")
	if got, _ := r.ConfigValue("user", "", "signingkey"); got != "key::ssh-ed25519 AAAA" {
		t.Errorf("repository config does not win: %q", got)
	}
}
