package hooks

import "github.com/skillgit/skillgit/internal/termtext"

// clip makes s safe to print on one line and cuts it to at most n runes.
func clip(s string, n int) string {
	r := []rune(termtext.Line(s))
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return string(r)
}
