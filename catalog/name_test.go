package catalog

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestValidateName(t *testing.T) {
	tests := []struct {
		name string
		want string // error text, "" for a valid name
	}{
		{name: "pdf-tools"},
		{name: "a"},
		{name: "v2"},
		{name: "3d"},
		{name: "café"},
		{name: "ｐｄｆ"},
		{name: strings.Repeat("x", 64)},
		{name: "", want: `name "" must not be empty`},
		{name: "   ", want: `name "   " must not be empty`},
		{name: strings.Repeat("x", 65), want: `name "` + strings.Repeat("x", 65) + `" is 65 characters long, over the limit of 64`},
		{name: "PDF", want: `name "PDF" must be lowercase (use "pdf")`},
		{name: "-x", want: `name "-x" must not start or end with a hyphen`},
		{name: "x-", want: `name "x-" must not start or end with a hyphen`},
		{name: "a--b", want: `name "a--b" must not contain "--" (use single hyphens)`},
		{name: " pdf", want: `name " pdf" must not start or end with white space`},
		{name: "a b", want: `name "a b" contains " " (use only letters, digits and hyphens)`},
		{name: "a/b", want: `name "a/b" contains "/" (use only letters, digits and hyphens)`},
		{name: "a\x00b", want: `name "a\x00b" contains "\x00" (use only letters, digits and hyphens)`},
		{name: "Bad_--Name-", want: `name "Bad_--Name-" must be lowercase (use "bad-name"), and must not start or end with a hyphen, ` +
			`and must not contain "--" (use single hyphens), and contains "_" (use only letters, digits and hyphens)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateName(tt.name)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("ValidateName(%q) = %v, want nil", tt.name, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("ValidateName(%q) = nil, want %q", tt.name, tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("ValidateName(%q) = %q, want %q", tt.name, err, tt.want)
			}
			if !errors.Is(err, ErrInvalidName) {
				t.Errorf("error %v does not match ErrInvalidName", err)
			}
			var nameErr *NameError
			if !errors.As(err, &nameErr) || nameErr.Name != tt.name {
				t.Errorf("error %v is not a *NameError for %q", err, tt.name)
			}
		})
	}
}

func TestIsReservedName(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"CON", true}, {"con", true}, {"Con", true}, {"prn", true}, {"aux", true}, {"nul", true},
		{"com1", true}, {"COM9", true}, {"lpt1", true}, {"LPT9", true}, {"com0", true}, {"lpt³", true},
		{"nul.txt", true}, {"con.tar.gz", true}, {"CON ", true}, {"aux .md", true},
		{"console", false}, {"com10", false}, {"lpt", false}, {"nul-tools", false}, {"conx.txt", false},
		{"", false}, {"x.con", false}, {"com", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsReservedName(tt.name); got != tt.want {
				t.Errorf("IsReservedName(%q) = %v, want %v", tt.name, got, tt.want)
			}
		})
	}
}

func TestSafeFolderName(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"pdf-tools", true}, {"My Skill", true}, {"日本", true},
		{"", false}, {".", false}, {"..", false}, {"a/b", false}, {`a\b`, false}, {"a:b", false},
		{"a\nb", false}, {"nul", false}, {strings.Repeat("x", 256), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := safeFolderName(tt.name); got != tt.want {
				t.Errorf("safeFolderName(%q) = %v, want %v", tt.name, got, tt.want)
			}
		})
	}
}

func TestSuggestName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"My_Skill", "my-skill"},
		{"PDF", "pdf"},
		{"Bad_--Name-", "bad-name"},
		{"  Pdf Tools ", "pdf-tools"},
		{"__", ""},
		{"", ""},
		{strings.Repeat("A", 63) + "_B", strings.Repeat("a", 63)},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := SuggestName(tt.in)
			if got != tt.want {
				t.Fatalf("SuggestName(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if got != "" && ValidateName(got) != nil {
				t.Fatalf("SuggestName(%q) = %q, which ValidateName refuses: %v", tt.in, got, ValidateName(got))
			}
		})
	}
}

// TestPlainValidNameAgreesWithTheRules holds the fast path of ValidateName to its rules: a
// name it passes has no fault, and every plain valid name it is given takes it.
func TestPlainValidNameAgreesWithTheRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	alphabet := []rune("abz09-AZ_ .é\u00a0ｆ\u212a\u0130-")
	fast := 0
	for range 200000 {
		n := 1 + rng.IntN(70)
		var b strings.Builder
		for range n {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		name := b.String()
		if plainValidName(name) {
			fast++
			if faults := nameFaults(normalizeName(name)); len(faults) != 0 || name != strings.TrimSpace(name) {
				t.Fatalf("%q passed on its face but breaks %v", name, faults)
			}
		}
	}
	for _, name := range []string{"a", "pdf-tools", "a1-b2-c3", strings.Repeat("x", MaxNameLength), "0"} {
		if !plainValidName(name) {
			t.Errorf("%q does not pass on its face", name)
		}
	}
	for _, name := range []string{"", "-a", "a-", "a--b", "A", "a_b", strings.Repeat("x", MaxNameLength+1), "ａ"} {
		if plainValidName(name) {
			t.Errorf("%q passes on its face", name)
		}
	}
	if fast < 100 {
		t.Fatalf("only %d random names took the fast path", fast)
	}
}
