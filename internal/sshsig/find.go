package sshsig

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"
)

// Find looks for an entry that lets key sign for principal in namespace at time at, and
// says why there is none. Principals compare case-insensitively; certificate authority
// entries are never used.
func Find(signers []Signer, key ssh.PublicKey, principal, namespace string, at time.Time) (Signer, error) {
	var why []string
	for _, s := range signers {
		if !bytes.Equal(s.Key.Marshal(), key.Marshal()) {
			continue
		}
		switch {
		case s.CertAuthority:
			why = append(why, fmt.Sprintf("line %d is a cert-authority entry, which is not accepted", s.Line))
		case !matchList(s.Principals, principal):
			why = append(why, fmt.Sprintf("line %d allows it for %s only", s.Line, strings.Join(s.Principals, ",")))
		case len(s.Namespaces) > 0 && !matchList(s.Namespaces, namespace):
			why = append(why, fmt.Sprintf("line %d allows it for namespaces %s only", s.Line, strings.Join(s.Namespaces, ",")))
		case !s.ValidAfter.IsZero() && at.Before(s.ValidAfter):
			why = append(why, fmt.Sprintf("line %d makes it valid after %s only", s.Line, s.ValidAfter.Format(time.RFC3339)))
		case !s.ValidBefore.IsZero() && !at.Before(s.ValidBefore):
			why = append(why, fmt.Sprintf("line %d makes it valid before %s only", s.Line, s.ValidBefore.Format(time.RFC3339)))
		default:
			return s, nil
		}
	}
	if len(why) == 0 {
		return Signer{}, fmt.Errorf("key %s is not an allowed signer", ssh.FingerprintSHA256(key))
	}
	return Signer{}, fmt.Errorf("key %s may not sign as %s: %s", ssh.FingerprintSHA256(key), principal, strings.Join(why, "; "))
}

// Holders lists the principals of every entry for key, except those an entry excludes with
// a leading !: who may hold the key, as far as the file tells, whatever the entry allows it
// to sign. The patterns are returned as written; MatchPrincipal compares one with a name.
func Holders(signers []Signer, key ssh.PublicKey) []string {
	var out []string
	for _, s := range signers {
		if !bytes.Equal(s.Key.Marshal(), key.Marshal()) {
			continue
		}
		for _, p := range s.Principals {
			if p = strings.TrimSpace(p); p != "" && !strings.HasPrefix(p, "!") {
				out = append(out, p)
			}
		}
	}
	return out
}

// MatchPrincipal reports whether name matches the principal pattern p of an allowed-signers
// entry, case-insensitively; * matches any run of bytes and ? any one byte.
func MatchPrincipal(p, name string) bool {
	return match(strings.ToLower(strings.TrimSpace(p)), strings.ToLower(name))
}

// matchList reports whether s matches a pattern of the list and no negated one.
func matchList(patterns []string, s string) bool {
	s = strings.ToLower(s)
	found := false
	for _, p := range patterns {
		p = strings.ToLower(strings.TrimSpace(p))
		if neg, ok := strings.CutPrefix(p, "!"); ok {
			if match(neg, s) {
				return false
			}
		} else if match(p, s) {
			found = true
		}
	}
	return found
}

// match is a glob where * matches any run of bytes and ? any one byte.
func match(p, s string) bool {
	star, backtrack := -1, 0
	i, j := 0, 0
	for j < len(s) {
		switch {
		case i < len(p) && (p[i] == '?' || p[i] == s[j]):
			i++
			j++
		case i < len(p) && p[i] == '*':
			star, backtrack = i, j
			i++
		case star >= 0:
			backtrack++
			i, j = star+1, backtrack
		default:
			return false
		}
	}
	for i < len(p) && p[i] == '*' {
		i++
	}
	return i == len(p)
}
