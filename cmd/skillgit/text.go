package main

import (
	"strings"
	"unicode"
)

// oneLine folds s onto one line and cuts it to at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(sanitize(s)), " ")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// sanitize replaces control characters, bidirectional controls and tag characters, so that text from a skill cannot
// drive the terminal or hide itself in what skillgit prints for people.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case unicode.IsControl(r), isBidiControl(r), r >= 0xE0000 && r <= 0xE007F:
			return '\uFFFD'
		}
		return r
	}, s)
}

func isBidiControl(r rune) bool {
	return r == 0x200E || r == 0x200F || r == 0x061C || (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}
