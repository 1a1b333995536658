package termtext

import "strings"

// Sanitize returns s with its control characters spelled out, as Escape
// does, and every bidirectional control and tag character replaced by
// U+FFFD, so that text from a skill or from git can neither drive the
// terminal nor reorder or hide what a person reads.
func Sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if Hidden(r) {
			return '\uFFFD'
		}
		return r
	}, Escape(s))
}

// Line is Sanitize for text that must stay on one line, such as a line of
// a report that git relays among its own: tab, newline and carriage return
// are spelled out too.
func Line(s string) string {
	return Sanitize(lineBreaks.Replace(s))
}

// lineBreaks spells out what would break a line or jump along it. They are
// ASCII, so replacing them bytewise leaves invalid UTF-8 for Escape to see.
var lineBreaks = strings.NewReplacer("\t", `\x09`, "\n", `\x0a`, "\r", `\x0d`)

// Hidden reports whether r changes how the text around it is shown without
// showing itself: a bidirectional control or a tag character.
func Hidden(r rune) bool {
	return r == 0x200E || r == 0x200F || r == 0x061C || (r >= 0x202A && r <= 0x202E) ||
		(r >= 0x2066 && r <= 0x2069) || (r >= 0xE0000 && r <= 0xE007F)
}
