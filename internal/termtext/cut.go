package termtext

import "unicode/utf8"

// Cut cuts s to at most n bytes at a rune's start, marking the cut with "…".
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
