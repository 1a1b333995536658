package audit

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skillgit/skillgit/internal/termtext"
)

// maxLineRunes bounds one rendered field: messages and snippets are
// bounded by the scan already, but paths and names come from the skill.
const maxLineRunes = 2000

// cleanLine renders s on one line that a terminal or a Markdown viewer
// shows as written: control characters, which could move a terminal's
// cursor or start an escape sequence, and invisible characters, which
// could hide or reorder text, are spelled out; invalid UTF-8 becomes
// U+FFFD; the length is bounded.
func cleanLine(s string) string {
	if len(s) <= maxLineRunes && printableASCII(s) {
		// Most fields are plain: a report of 100,000 skills renders their paths and names
		// without copying them.
		return s
	}
	return escapeLine(s)
}

// escapeLine is cleanLine for a field that may need escaping.
func escapeLine(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n >= maxLineRunes {
			b.WriteString("…")
			break
		}
		n++
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			b.WriteByte(' ')
		case termtext.Control(r):
			b.WriteString(termtext.Spell(r))
		case r == utf8.RuneError || classify(r) != invNone || unicode.Is(unicode.Co, r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// printableASCII reports whether s holds only printable ASCII characters, which cleanLine
// keeps as they are.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// mdSpecial holds the ASCII characters that start Markdown or HTML
// markup inside a line: emphasis, code, links, raw HTML, entities, table
// cells, strikethrough and math.
const mdSpecial = "\\`*_[]<>|~&$"

// mdText renders s as literal Markdown text inside a line. Words that
// GitHub would turn into a mention or a link (anything with "@", "://"
// or "www.") go into code spans, so a hostile skill cannot notify people
// or plant a clickable address in a review comment.
func mdText(s string) string {
	words := strings.Split(cleanLine(s), " ")
	for i, w := range words {
		if linkLike(w) {
			words[i] = codeSpan(w)
		} else {
			words[i] = mdEscape(w)
		}
	}
	return strings.Join(words, " ")
}

func linkLike(w string) bool {
	l := strings.ToLower(w)
	return strings.ContainsRune(l, '@') || strings.Contains(l, "://") || strings.Contains(l, "www.")
}

// mdEscape backslash-escapes the characters of mdSpecial.
func mdEscape(s string) string {
	if !strings.ContainsAny(s, mdSpecial) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r < utf8.RuneSelf && strings.IndexByte(mdSpecial, byte(r)) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// codeSpan renders s as a Markdown code span that shows it literally: the
// fence is one backtick longer than the longest run of backticks inside,
// and a space pads content that would otherwise merge with the fence or
// lose its own edge spaces.
func codeSpan(s string) string {
	s = cleanLine(s)
	if s == "" {
		return ""
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	pad := ""
	if s[0] == '`' || s[len(s)-1] == '`' || s[0] == ' ' && s[len(s)-1] == ' ' && strings.Trim(s, " ") != "" {
		pad = " "
	}
	return fence + pad + s + pad + fence
}

// cellCode renders s as a code span inside a table cell. A table splits
// its rows at pipes even inside code spans, and escaping them there is
// read differently by different renderers, so a pipe is shown as a
// broken bar instead.
func cellCode(s string) string {
	return codeSpan(strings.ReplaceAll(s, "|", "¦"))
}

func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] != c {
			run = 0
			continue
		}
		run++
		best = max(best, run)
	}
	return best
}
