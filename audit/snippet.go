package audit

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/skillgit/skillgit/internal/termtext"
)

const (
	maxSnippet = 160 // runes in a snippet or a decoded excerpt
	redacted   = "…[REDACTED]"
)

// secretSpans returns the parts of text to hide in every output: the
// secrets that secret rules matched, after a short visible prefix that
// tells what kind of secret it is.
func secretSpans(hits []hit) [][2]int {
	var out [][2]int
	for _, h := range hits {
		if h.tags&tagSecret == 0 || h.start < 0 {
			continue
		}
		out = append(out, [2]int{h.start + secretKeep(h.content), h.end})
	}
	return out
}

// secretKeep returns how many leading bytes of a secret may be shown: the
// header line of a private key, or a few characters of a token.
func secretKeep(s string) int {
	if strings.HasPrefix(s, "-----BEGIN") {
		if i := strings.Index(s[5:], "-----"); i >= 0 {
			return i + 10
		}
	}
	return min(4, len(s)/4)
}

// redactString hides a secret's content after its visible prefix.
func redactString(s string) string {
	k := secretKeep(s)
	return s[:k] + redacted
}

// excerpt renders text[s:e] on one line: secrets inside spans replaced,
// invisible characters spelled out, white space collapsed, and the
// length bounded.
func excerpt(text []byte, s, e int, spans [][2]int) string {
	var b strings.Builder
	e = min(e, s+16*maxSnippet)
	n := 0
	for i := s; i < e && n < maxSnippet; {
		if sp, ok := spanAt(spans, i); ok {
			b.WriteString(redacted)
			n += 2
			i = max(sp[1], i+1)
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		i += size
		n += writeVisible(&b, r)
	}
	out := strings.Join(strings.Fields(b.String()), " ")
	if n >= maxSnippet || e < len(text) && e == s+16*maxSnippet {
		out += "…"
	}
	return out
}

func spanAt(spans [][2]int, i int) ([2]int, bool) {
	for _, sp := range spans {
		if sp[0] <= i && i < sp[1] {
			return sp, true
		}
	}
	return [2]int{}, false
}

// writeVisible writes r so that a reader can see it, and returns how many
// runes were written.
func writeVisible(b *strings.Builder, r rune) int {
	switch {
	case r == utf8.RuneError:
		b.WriteString("\ufffd")
	case classify(r) != invNone:
		fmt.Fprintf(b, "<U+%04X>", r)
		return 8
	case r == '\t' || r == '\n' || r == '\r' || r == '\f':
		b.WriteByte(' ')
	case termtext.Control(r):
		s := termtext.Spell(r)
		b.WriteString(s)
		return len(s)
	default:
		b.WriteRune(r)
	}
	return 1
}

// visibleString renders a decoded string for Decoded, bounded and with
// secrets hidden by the caller beforehand.
func visibleString(s string) string {
	return excerpt([]byte(s), 0, len(s), nil)
}
