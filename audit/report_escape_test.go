package audit

import (
	"strings"
	"testing"
)

// TestCleanLinePlain checks that the plain fields cleanLine passes through unchanged are the
// ones escapeLine would leave as they are.
func TestCleanLinePlain(t *testing.T) {
	var all strings.Builder
	for c := range 0x80 {
		s := "a" + string(rune(c)) + "b"
		if got, want := cleanLine(s), escapeLine(s); got != want {
			t.Errorf("cleanLine(%q) = %q, want %q", s, got, want)
		}
		all.WriteByte(byte(c))
	}
	for _, s := range []string{"", "skills/pdf-tools", "caf\u00e9", "\u200b", all.String(), strings.Repeat("x", maxLineRunes), strings.Repeat("x", maxLineRunes+1)} {
		if got, want := cleanLine(s), escapeLine(s); got != want {
			t.Errorf("cleanLine(%q) = %q, want %q", s, got, want)
		}
	}
}
