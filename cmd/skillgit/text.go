package main

import (
	"io"
	"strings"
	"unicode/utf8"

	"github.com/skillgit/skillgit/internal/termtext"
)

// oneLine folds s onto one line and cuts it to at most n runes. Printable ASCII with single
// spaces, which most descriptions are, comes out as it went in up to the cut, so it is cut
// without being folded; the rest is folded by foldLine.
func oneLine(s string, n int) string {
	switch {
	case len(s) <= n && plainLine(s):
		return s
	case plainCut(s, n):
		return s[:n-1] + "…"
	}
	return foldLine(s, n)
}

// plainCut reports whether folding s leaves its first n bytes as they are and more runes
// after them, so that the line is cut there: they are plain (plainLine), and so is the byte
// after them, or that byte is a single space before a printable one. A description is cut at
// a space one time in six.
func plainCut(s string, n int) bool {
	switch {
	case n < 1 || len(s) <= n:
		return false
	case plainLine(s[:n+1]):
		return true
	}
	return s[n] == ' ' && len(s) > n+1 && s[n+1] > ' ' && s[n+1] <= '~' && plainLine(s[:n])
}

// foldLine is oneLine for any text: control characters spelled out, whitespace runs made
// single spaces, and the result cut to at most n runes.
func foldLine(s string, n int) string {
	s = strings.Join(strings.Fields(sanitize(s)), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	// sanitize leaves valid UTF-8, so the cut falls between runes.
	cut := 0
	for range n - 1 {
		_, size := utf8.DecodeRuneInString(s[cut:])
		cut += size
	}
	return s[:cut] + "…"
}

// plainLine reports whether s is printable ASCII with single spaces between words and none
// at either end: text that folding leaves as it is, recognised without the work of folding it,
// which for a list of 10,000 skills was most of printing it.
func plainLine(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ':
			if i == 0 || i == len(s)-1 || s[i-1] == ' ' {
				return false
			}
		case c < 0x20 || c > 0x7e:
			return false
		}
	}
	return true
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
