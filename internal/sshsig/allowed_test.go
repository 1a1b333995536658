package sshsig

import (
	"strings"
	"testing"
	"time"
)

func TestParseAllowedSigners(t *testing.T) {
	_, alice := newKey(t, "alice")
	file := "# reviewers\n\n" +
		"alice@example.com " + alice + "\n" +
		`"bob@example.com,*@ops.example.com" namespaces="git,file",valid-after="20240101",valid-before="20300101Z" ` + alice + "\n" +
		"ca@example.com cert-authority " + alice + "\n"
	got, err := ParseAllowedSigners([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("got %d entries, want 3", len(got))
	}
	if got[0].Line != 3 || got[0].Principals[0] != "alice@example.com" {
		t.Errorf("first entry = %+v", got[0])
	}
	b := got[1]
	if strings.Join(b.Principals, "|") != "bob@example.com|*@ops.example.com" || strings.Join(b.Namespaces, "|") != "git|file" {
		t.Errorf("second entry = %+v", b)
	}
	if !b.ValidBefore.Equal(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)) || b.ValidAfter.IsZero() {
		t.Errorf("validity = %v .. %v", b.ValidAfter, b.ValidBefore)
	}
	if !got[2].CertAuthority {
		t.Error("cert-authority not read")
	}
}

func TestParseAllowedSignersMalformed(t *testing.T) {
	_, alice := newKey(t, "alice")
	for name, line := range map[string]string{
		"principals only":  "alice@example.com",
		"no key":           "alice@example.com ssh-ed25519",
		"bad base64":       "alice@example.com ssh-ed25519 !!!!",
		"unknown option":   "alice@example.com no-touch-required " + alice,
		"bad time":         `alice@example.com valid-after="2024" ` + alice,
		"valueless option": "alice@example.com namespaces " + alice,
		"ca with value":    "alice@example.com cert-authority=yes " + alice,
		"open quote":       `"alice@example.com ` + alice,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ParseAllowedSigners([]byte("# x\n" + line + "\n"))
			if err == nil || !strings.HasPrefix(err.Error(), "line 2: ") {
				t.Errorf("err = %v, want one naming line 2", err)
			}
		})
	}
	if _, err := ParseAllowedSigners(make([]byte, MaxAllowedSigners+1)); err == nil {
		t.Error("a file over the limit was read")
	}
}

func TestFind(t *testing.T) {
	_, alice := newKey(t, "alice")
	_, bob := newKey(t, "bob")
	file := "ALICE@example.com " + alice + "\n" +
		`*@ops.example.com,!mallory@ops.example.com namespaces="file" ` + bob + "\n" +
		`bob@example.com valid-after="20240101Z",valid-before="20250101Z" ` + bob + "\n" +
		"ca@example.com cert-authority " + bob + "\n"
	signers, err := ParseAllowedSigners([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	in2024 := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name, key, principal, ns string
		at                       time.Time
		want                     string // "" when found, else a part of the reason
	}{
		{"case-insensitive principal", alice, "alice@EXAMPLE.com", "git", in2024, ""},
		{"key of someone else", alice, "bob@example.com", "git", in2024, "allows it for ALICE@example.com only"},
		{"key not listed", "", "alice@example.com", "git", in2024, "is not an allowed signer"},
		{"within validity", bob, "bob@example.com", "git", in2024, ""},
		{"before validity", bob, "bob@example.com", "git", in2024.AddDate(-1, 0, 0), "valid after"},
		{"after validity", bob, "bob@example.com", "git", in2024.AddDate(1, 0, 0), "valid before"},
		{"wildcard wrong namespace", bob, "eve@ops.example.com", "git", in2024, "namespaces file only"},
		{"wildcard right namespace", bob, "eve@ops.example.com", "file", in2024, ""},
		{"negated principal", bob, "mallory@ops.example.com", "file", in2024, "allows it for"},
		{"cert authority", bob, "ca@example.com", "git", in2024, "cert-authority"},
	}
	_, other := newKey(t, "other")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			key := tc.key
			if key == "" {
				key = other
			}
			_, err := Find(signers, parsePub(t, key), tc.principal, tc.ns, tc.at)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Find: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Find = %v, want an error with %q", err, tc.want)
			}
		})
	}
}

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		p, s string
		want bool
	}{
		{"*", "", true}, {"*", "abc", true}, {"a?c", "abc", true}, {"a?c", "ac", false},
		{"*@example.com", "bob@example.com", true}, {"*@example.com", "bob@example.org", false},
		{"a*b*c", "aXbYbZc", true}, {"a*b*c", "aXbYbZ", false}, {"", "", true}, {"", "a", false},
	} {
		if got := match(tc.p, tc.s); got != tc.want {
			t.Errorf("match(%q, %q) = %v", tc.p, tc.s, got)
		}
	}
}

// TestHolders names who may hold a key, wherever the file lists it, and never an excluded
// principal or the holder of another key.
func TestHolders(t *testing.T) {
	_, alice := newKey(t, "alice")
	_, bob := newKey(t, "bob")
	_, other := newKey(t, "other")
	file := "alice@example.com " + alice + "\n" +
		`*@ops.example.com,!mallory@ops.example.com namespaces="file" ` + bob + "\n" +
		`bob@example.com valid-before="20200101Z" ` + bob + "\n"
	signers, err := ParseAllowedSigners([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	if got := Holders(signers, parsePub(t, bob)); strings.Join(got, " ") != "*@ops.example.com bob@example.com" {
		t.Errorf("Holders(bob) = %q", got)
	}
	if got := Holders(signers, parsePub(t, other)); len(got) != 0 {
		t.Errorf("Holders(unlisted) = %q; want none", got)
	}
	for _, tc := range []struct {
		p, name string
		want    bool
	}{
		{"*@ops.example.com", "Eve@OPS.example.com", true}, {"Bob@Example.com", "bob@example.com", true},
		{"*@ops.example.com", "eve@example.com", false}, {"bob@example.com", "bob@example.org", false},
	} {
		if got := MatchPrincipal(tc.p, tc.name); got != tc.want {
			t.Errorf("MatchPrincipal(%q, %q) = %v", tc.p, tc.name, got)
		}
	}
}

func FuzzParseAllowedSigners(f *testing.F) {
	f.Add([]byte("a@b ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIO7\n"))
	f.Add([]byte(`"a b" namespaces="git",valid-after="20240101Z" ssh-ed25519 AAAA`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ParseAllowedSigners(data)
	})
}
