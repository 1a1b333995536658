package sshsig

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/skillgit/skillgit/internal/interrupt"
)

// literalPrefix marks a user.signingkey that holds a public key rather than a path.
const literalPrefix = "key::"

// Sign signs payload for namespace the way git does with gpg.format=ssh: it runs program
// (ssh-keygen when empty) as "PROGRAM -Y sign -n NAMESPACE -f KEYFILE" and returns the armored
// signature. signingKey is git's user.signingkey: a private key file, a public key file whose
// private key is in ssh-agent, or "key::" and a public key.
func Sign(ctx context.Context, program, signingKey, namespace string, payload []byte) (string, error) {
	keyFile, cleanup, err := keyFileOf(signingKey)
	if err != nil {
		return "", err
	}
	defer cleanup()
	if program == "" {
		program = "ssh-keygen"
	}
	var out, errOut bytes.Buffer
	cmd := exec.CommandContext(ctx, program, "-Y", "sign", "-n", namespace, "-f", keyFile)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(payload), &out, &errOut
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("signing with %s failed: %v: %s", signingKey, err, strings.TrimSpace(errOut.String()))
	}
	sig, err := Parse(out.Bytes())
	if err == nil {
		err = sig.Verify(payload, namespace)
	}
	if err != nil {
		return "", fmt.Errorf("signing with %s: %s printed no valid signature: %w", signingKey, program, err)
	}
	return strings.TrimSpace(out.String()) + "\n", nil
}

// keyFileOf returns a file ssh-keygen can sign with: the path in signingKey (with ~/
// expanded), or a temporary file holding a literal key, removed by cleanup.
func keyFileOf(signingKey string) (string, func(), error) {
	literal, ok := strings.CutPrefix(signingKey, literalPrefix)
	if !ok {
		return expandHome(signingKey), func() {}, nil
	}
	dir, untrack, err := interrupt.MkdirTemp("", "skillgit-signingkey-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(dir); untrack() }
	path := filepath.Join(dir, "key.pub")
	if err := os.WriteFile(path, []byte(strings.TrimSpace(literal)+"\n"), 0o600); err != nil {
		cleanup()
		return "", nil, err
	}
	return path, cleanup, nil
}

func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}
