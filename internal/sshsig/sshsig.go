// Package sshsig reads and checks SSH signatures in the SSHSIG format that ssh-keygen -Y sign
// writes and git stores in the gpgsig header of a commit signed with gpg.format=ssh, and the
// allowed-signers files that say whose keys count.
package sshsig

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"fmt"
	"hash"
	"strings"

	"golang.org/x/crypto/ssh"
)

const (
	magic      = "SSHSIG"
	version    = 1
	armorBegin = "-----BEGIN SSH SIGNATURE-----"
	armorEnd   = "-----END SSH SIGNATURE-----"
	// maxArmored bounds the armored signature parsed; real ones are well under 2 KiB.
	maxArmored = 64 << 10
)

// ErrMalformed is returned for a signature that is not a well-formed SSHSIG.
var ErrMalformed = errors.New("malformed SSH signature")

// ErrBadSignature is returned when a well-formed signature does not verify.
var ErrBadSignature = errors.New("SSH signature does not verify")

// Signature is a parsed SSH signature: the key that made it and what it signed for.
type Signature struct {
	// PublicKey is the key the signature claims to be made with.
	PublicKey ssh.PublicKey
	// Namespace is the purpose the signature was made for, "git" for commits.
	Namespace string
	// HashAlgorithm is "sha256" or "sha512".
	HashAlgorithm string
	sig           *ssh.Signature
}

// wireSignature is the SSHSIG blob after its magic preamble.
type wireSignature struct {
	Version       uint32
	PublicKey     []byte
	Namespace     string
	Reserved      string
	HashAlgorithm string
	Signature     []byte
}

// Parse reads an armored SSH signature. It checks the format only; Verify checks the
// signature itself.
func Parse(armored []byte) (*Signature, error) {
	blob, err := unarmor(armored)
	if err != nil {
		return nil, err
	}
	return decode(blob)
}

// unarmor returns the bytes between the BEGIN and END lines, base64-decoded.
func unarmor(armored []byte) ([]byte, error) {
	if len(armored) > maxArmored {
		return nil, fmt.Errorf("%w: %d bytes, more than %d", ErrMalformed, len(armored), maxArmored)
	}
	lines := strings.Split(strings.TrimSpace(strings.ReplaceAll(string(armored), "\r\n", "\n")), "\n")
	if len(lines) < 3 || strings.TrimSpace(lines[0]) != armorBegin || strings.TrimSpace(lines[len(lines)-1]) != armorEnd {
		return nil, fmt.Errorf("%w: not between %q and %q lines", ErrMalformed, armorBegin, armorEnd)
	}
	var b strings.Builder
	for _, l := range lines[1 : len(lines)-1] {
		b.WriteString(strings.TrimSpace(l))
	}
	blob, err := base64.StdEncoding.DecodeString(b.String())
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return blob, nil
}

func decode(blob []byte) (*Signature, error) {
	rest, ok := bytes.CutPrefix(blob, []byte(magic))
	if !ok {
		return nil, fmt.Errorf("%w: no %s preamble", ErrMalformed, magic)
	}
	var w wireSignature
	if err := ssh.Unmarshal(rest, &w); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if w.Version != version {
		return nil, fmt.Errorf("%w: version %d, not %d", ErrMalformed, w.Version, version)
	}
	pub, err := ssh.ParsePublicKey(w.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("%w: public key: %v", ErrMalformed, err)
	}
	sig := new(ssh.Signature)
	if err := ssh.Unmarshal(w.Signature, sig); err != nil {
		return nil, fmt.Errorf("%w: signature: %v", ErrMalformed, err)
	}
	if _, err := hasher(w.HashAlgorithm); err != nil {
		return nil, err
	}
	return &Signature{PublicKey: pub, Namespace: w.Namespace, HashAlgorithm: w.HashAlgorithm, sig: sig}, nil
}

func hasher(alg string) (hash.Hash, error) {
	switch alg {
	case "sha256":
		return sha256.New(), nil
	case "sha512":
		return sha512.New(), nil
	}
	return nil, fmt.Errorf("%w: hash algorithm %q is not sha256 or sha512", ErrMalformed, alg)
}

// Verify checks that the signature was made over payload for namespace by its PublicKey.
// Certificates and RSA signatures with SHA-1 are refused.
func (s *Signature) Verify(payload []byte, namespace string) error {
	if s.Namespace != namespace {
		return fmt.Errorf("%w: made for namespace %q, not %q", ErrBadSignature, s.Namespace, namespace)
	}
	if _, isCert := s.PublicKey.(*ssh.Certificate); isCert {
		return fmt.Errorf("%w: signatures by certificates are not accepted", ErrBadSignature)
	}
	if s.sig.Format == ssh.KeyAlgoRSA {
		return fmt.Errorf("%w: RSA signatures with SHA-1 are not accepted", ErrBadSignature)
	}
	h, err := hasher(s.HashAlgorithm)
	if err != nil {
		return err
	}
	h.Write(payload)
	if err := s.PublicKey.Verify(signedData(s.Namespace, s.HashAlgorithm, h.Sum(nil)), s.sig); err != nil {
		return fmt.Errorf("%w: %v", ErrBadSignature, err)
	}
	return nil
}

// signedData is what the key signs: the preamble, the namespace, an empty reserved field,
// the hash algorithm and the hash of the message.
func signedData(namespace, hashAlg string, digest []byte) []byte {
	body := ssh.Marshal(struct {
		Namespace     string
		Reserved      string
		HashAlgorithm string
		Digest        []byte
	}{namespace, "", hashAlg, digest})
	return append([]byte(magic), body...)
}
