package hooks

import (
	"strings"
	"unicode"
)

// sanitize replaces control characters, bidirectional controls and tag characters, so that
// text from a skill or from git cannot drive the terminal or hide itself in a hook's report.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if isControl(r) {
			return '\uFFFD'
		}
		return r
	}, s)
}

// isControl reports a rune that must not reach a terminal: a control character (tab
// included), a bidirectional control or a tag character.
func isControl(r rune) bool {
	return unicode.IsControl(r) || r == 0x200E || r == 0x200F || r == 0x061C ||
		(r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || (r >= 0xE0000 && r <= 0xE007F)
}

// clip sanitizes s and cuts it to at most n runes.
func clip(s string, n int) string {
	r := []rune(sanitize(s))
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return string(r)
}
