package sshsig

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"
)

// MaxAllowedSigners bounds the allowed-signers file read.
const MaxAllowedSigners = 1 << 20

// Signer is one line of an allowed-signers file (ssh-keygen(1), ALLOWED SIGNERS), the format
// of git's gpg.ssh.allowedSignersFile.
type Signer struct {
	// Line is the 1-based line the entry is on.
	Line int
	// Principals are the patterns of who may sign with Key; * and ? are wildcards and a
	// leading ! excludes.
	Principals []string
	Key        ssh.PublicKey
	// Namespaces the key may sign for; empty means any.
	Namespaces []string
	// ValidAfter and ValidBefore bound when the key is valid; zero means unbounded.
	ValidAfter, ValidBefore time.Time
	// CertAuthority marks a certificate authority key, which Find never accepts.
	CertAuthority bool
}

// ParseAllowedSigners reads an allowed-signers file: one entry a line, "principals [options]
// keytype base64key [comment]"; blank lines and lines starting with # are skipped. The first
// malformed line is an error naming it.
func ParseAllowedSigners(data []byte) ([]Signer, error) {
	if len(data) > MaxAllowedSigners {
		return nil, fmt.Errorf("%d bytes, more than %d", len(data), MaxAllowedSigners)
	}
	var out []Signer
	for i, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		s, err := parseSigner(string(line))
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		s.Line = i + 1
		out = append(out, s)
	}
	return out, nil
}

func parseSigner(line string) (Signer, error) {
	principals, rest, err := cutPrincipals(line)
	if err != nil {
		return Signer{}, err
	}
	key, _, opts, tail, err := ssh.ParseAuthorizedKey([]byte(rest))
	if err != nil {
		return Signer{}, fmt.Errorf("no valid public key: %v", err)
	}
	if len(bytes.TrimSpace(tail)) != 0 {
		return Signer{}, fmt.Errorf("no valid public key")
	}
	s := Signer{Principals: strings.Split(principals, ","), Key: key}
	for _, o := range opts {
		if err := s.setOption(o); err != nil {
			return Signer{}, err
		}
	}
	return s, nil
}

// cutPrincipals splits off the first field, which may be in double quotes.
func cutPrincipals(line string) (string, string, error) {
	if strings.HasPrefix(line, `"`) {
		end := strings.IndexByte(line[1:], '"')
		if end < 0 {
			return "", "", fmt.Errorf("unterminated quoted principals")
		}
		return line[1 : end+1], strings.TrimSpace(line[end+2:]), nil
	}
	p, rest, ok := strings.Cut(line, " ")
	if i := strings.IndexByte(p, '\t'); i >= 0 {
		p, rest, ok = line[:i], line[i+1:], true
	}
	if !ok || p == "" {
		return "", "", fmt.Errorf("needs principals and a public key")
	}
	return p, strings.TrimSpace(rest), nil
}

func (s *Signer) setOption(opt string) error {
	name, value, hasValue := strings.Cut(opt, "=")
	name, value = strings.ToLower(name), strings.Trim(value, `"`)
	var err error
	switch name {
	case "cert-authority":
		s.CertAuthority = true
	case "namespaces":
		s.Namespaces = strings.Split(value, ",")
	case "valid-after":
		s.ValidAfter, err = parseValidity(value)
	case "valid-before":
		s.ValidBefore, err = parseValidity(value)
	default:
		return fmt.Errorf("unknown option %q", name)
	}
	if err == nil && hasValue == (name == "cert-authority") {
		err = fmt.Errorf("option %q is malformed", opt)
	}
	return err
}

// parseValidity reads YYYYMMDD[HHMM[SS]], in UTC with a trailing Z, else in local time.
func parseValidity(v string) (time.Time, error) {
	loc := time.Local
	if t, ok := strings.CutSuffix(v, "Z"); ok {
		v, loc = t, time.UTC
	}
	layouts := map[int]string{8: "20060102", 12: "200601021504", 14: "20060102150405"}
	layout, ok := layouts[len(v)]
	if !ok {
		return time.Time{}, fmt.Errorf("time %q is not YYYYMMDD[HHMM[SS]][Z]", v)
	}
	t, err := time.ParseInLocation(layout, v, loc)
	if err != nil {
		return time.Time{}, fmt.Errorf("time %q is not YYYYMMDD[HHMM[SS]][Z]", v)
	}
	return t, nil
}
