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

// sanitize spells out control characters and replaces bidirectional controls and tag
// characters, so that text from a skill cannot drive the terminal or hide itself in what
// skillgit prints for people.
func sanitize(s string) string { return termtext.Sanitize(s) }

// writeSkillText writes skills as agents load them, with control
// characters spelled out, so that a skill cannot drive the terminal that
// shows it and an agent sees what a person would see.
func writeSkillText(w io.Writer, text []byte) error {
	_, err := io.WriteString(w, termtext.Escape(string(text)))
	return err
}
