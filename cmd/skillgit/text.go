package main

import (
	"io"
	"strings"

	"github.com/skillgit/skillgit/internal/termtext"
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

// sanitize spells out control characters and replaces bidirectional controls and tag characters, so that text
// from a skill cannot drive the terminal or hide itself in what skillgit prints for people.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if isBidiControl(r) || r >= 0xE0000 && r <= 0xE007F {
			return '\uFFFD'
		}
		return r
	}, termtext.Escape(s))
}

// writeSkillText writes skills as agents load them, with control
// characters spelled out, so that a skill cannot drive the terminal that
// shows it and an agent sees what a person would see.
func writeSkillText(w io.Writer, text []byte) error {
	_, err := io.WriteString(w, termtext.Escape(string(text)))
	return err
}

func isBidiControl(r rune) bool {
	return r == 0x200E || r == 0x200F || r == 0x061C || (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}
