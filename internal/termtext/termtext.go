// Package termtext spells out the control characters in text from a skill,
// so that printing the text cannot drive the terminal that shows it: set
// its window title, clear the screen, move the cursor or hide lines.
package termtext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape returns s with every control character spelled out as a visible
// escape: C0 controls and DEL as \x1b, C1 controls as \u009b, and stray
// bytes that a terminal in 8-bit mode reads as C1 as \x9b. Tab, newline
// and a carriage return before a newline are kept, so text keeps its
// lines; everything else, invalid UTF-8 included, is left as it is.
func Escape(s string) string {
	i := firstControl(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1 && isC1(rune(s[i])):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case Control(r) && !(r == '\r' && strings.HasPrefix(s[i+1:], "\n")):
			b.WriteString(Spell(r))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// firstControl returns the index of the first rune that Escape may have
// to change, or -1 when s can be printed as it is.
func firstControl(s string) int {
	for i, r := range s {
		if Control(r) || r == utf8.RuneError && isC1(rune(s[i])) {
			return i
		}
	}
	return -1
}

// Control reports whether r is a control character other than tab and
// newline: C0, DEL or C1. A carriage return is one, for alone it moves
// the cursor back over the line already printed.
func Control(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' || r == 0x7f || isC1(r)
}

// Spell returns the visible escape for the control character r: \x1b for
// C0 and DEL, \u009b for C1.
func Spell(r rune) string {
	if isC1(r) {
		return fmt.Sprintf(`\u%04x`, r)
	}
	return fmt.Sprintf(`\x%02x`, r)
}

func isC1(r rune) bool { return r >= 0x80 && r <= 0x9f }
