package sshsig

import (
	"encoding/base64"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestSignVerify(t *testing.T) {
	key, pub := newKey(t, "alice")
	armored := mustSign(t, key, "tree abc\n\nmessage\n")
	sig, err := Parse([]byte(armored))
	if err != nil {
		t.Fatal(err)
	}
	if err := sig.Verify([]byte("tree abc\n\nmessage\n"), "git"); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if got, want := string(sig.PublicKey.Marshal()), string(parsePub(t, pub).Marshal()); got != want {
		t.Error("the signature names another key than the one that made it")
	}
	for name, tc := range map[string]struct{ payload, ns string }{
		"other payload":   {"tree abd\n\nmessage\n", "git"},
		"other namespace": {"tree abc\n\nmessage\n", "file"},
	} {
		t.Run(name, func(t *testing.T) {
			if err := sig.Verify([]byte(tc.payload), tc.ns); !errors.Is(err, ErrBadSignature) {
				t.Errorf("Verify = %v, want ErrBadSignature", err)
			}
		})
	}
}

// TestVerifiesSshKeygenFileSignature checks a signature made by ssh-keygen on a file, as git
// makes it, not through Sign.
func TestVerifiesSshKeygenFileSignature(t *testing.T) {
	key, _ := newKey(t, "bob")
	msg := filepath.Join(t.TempDir(), "payload")
	if err := os.WriteFile(msg, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("ssh-keygen", "-Y", "sign", "-n", "git", "-f", key, msg).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	armored, err := os.ReadFile(msg + ".sig")
	if err != nil {
		t.Fatal(err)
	}
	sig, err := Parse(armored)
	if err != nil {
		t.Fatal(err)
	}
	if err := sig.Verify([]byte("hello\n"), "git"); err != nil {
		t.Fatal(err)
	}
}

func TestSignRefuses(t *testing.T) {
	if _, err := Sign(t.Context(), "", filepath.Join(t.TempDir(), "nokey"), "git", []byte("x")); err == nil {
		t.Error("signing with a missing key file succeeded")
	}
	if _, err := Sign(t.Context(), "false", "key::ssh-ed25519 AAAA", "git", []byte("x")); err == nil {
		t.Error("a signing program that fails gave a signature")
	}
}

func TestParseMalformed(t *testing.T) {
	key, _ := newKey(t, "carol")
	good := mustSign(t, key, "x")
	blob, err := unarmor([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	armor := func(b []byte) string {
		return armorBegin + "\n" + base64.StdEncoding.EncodeToString(b) + "\n" + armorEnd + "\n"
	}
	cases := map[string]string{
		"empty":          "",
		"no armor":       "SSHSIG",
		"no end":         armorBegin + "\nU1NIU0lH\n",
		"bad base64":     armorBegin + "\n!!!\n" + armorEnd,
		"pgp":            "-----BEGIN PGP SIGNATURE-----\nabc\n-----END PGP SIGNATURE-----",
		"wrong magic":    armor(append([]byte("SSHSIX"), blob[6:]...)),
		"truncated":      armor(blob[:len(blob)-5]),
		"trailing bytes": armor(append(append([]byte{}, blob...), 0)),
		"only magic":     armor([]byte("SSHSIG")),
		"huge":           armorBegin + "\n" + strings.Repeat("A", maxArmored) + "\n" + armorEnd,
	}
	version := append([]byte{}, blob...)
	version[9] = 2
	cases["version 2"] = armor(version)
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := Parse([]byte(in)); !errors.Is(err, ErrMalformed) {
				t.Errorf("Parse = %v, want ErrMalformed", err)
			}
		})
	}
}

// TestParseFlippedBytes flips every byte of a real signature: each result either fails to
// parse or fails to verify, and nothing panics.
func TestParseFlippedBytes(t *testing.T) {
	key, _ := newKey(t, "dave")
	blob, err := unarmor([]byte(mustSign(t, key, "payload")))
	if err != nil {
		t.Fatal(err)
	}
	for i := range blob {
		b := append([]byte{}, blob...)
		b[i] ^= 0x41
		sig, err := decode(b)
		if err != nil {
			continue
		}
		if sig.Verify([]byte("payload"), "git") == nil {
			t.Errorf("flipping byte %d still verifies", i)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(armorBegin + "\nU1NIU0lH\n" + armorEnd))
	f.Add([]byte("-----BEGIN SSH SIGNATURE-----\n\n-----END SSH SIGNATURE-----"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if sig, err := Parse(data); err == nil {
			_ = sig.Verify(data, "git")
		}
	})
}
