package audit

import (
	"encoding/binary"
	"unicode"
	"unicode/utf8"
)

// invisible classifies characters that render as nothing.
type invisible uint8

const (
	invNone      invisible = iota
	invTag                 // Unicode tag characters: can spell hidden ASCII
	invBidi                // bidirectional overrides and isolates
	invMark                // bidirectional marks, normal in right-to-left text
	invZeroWidth           // zero-width and other joiners that split words
	invSelector            // variation selectors
	invOther               // other format characters and invisible fillers
)

func classify(r rune) invisible {
	switch {
	case r < 0xad:
		return invNone
	case r >= 0xe0000 && r <= 0xe007f:
		return invTag
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return invBidi
	case r == 0x200e, r == 0x200f, r == 0x061c:
		return invMark
	case r >= 0x200b && r <= 0x200d, r == 0x2060, r == 0xfeff, r == 0xad, r == 0x34f,
		r == 0x180e, r >= 0x2061 && r <= 0x2064:
		return invZeroWidth
	case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef:
		return invSelector
	case r == 0x115f, r == 0x1160, r == 0x17b4, r == 0x17b5, r == 0x3164, r == 0xffa0,
		r >= 0x206a && r <= 0x206f, r >= 0xfff9 && r <= 0xfffb, r >= 0x1d173 && r <= 0x1d17a,
		r == 0x2028, r == 0x2029:
		return invOther
	}
	return invNone
}

// joinerScript reports whether r belongs to a script whose normal spelling
// uses zero-width joiners and non-joiners (Hebrew, Arabic, Persian, Syriac,
// the Indic scripts, Thai, Lao, Tibetan, Myanmar, Khmer, Mongolian).
func joinerScript(r rune) bool {
	return r >= 0x0590 && r <= 0x10ff || r >= 0x1780 && r <= 0x18af ||
		r >= 0xa8e0 && r <= 0xa8ff || r >= 0xfb1d && r <= 0xfdff || r >= 0xfe70 && r <= 0xfefc
}

// emojiLike reports whether r takes part in emoji sequences.
func emojiLike(r rune) bool {
	return r >= 0x1f000 && r <= 0x1faff || r >= 0x2190 && r <= 0x2bff || r == 0xfe0f ||
		r == 0x20e3 || r == 0xa9 || r == 0xae || r == 0x3030 || r == 0x303d
}

// latinLike reports whether r is a letter or digit of the scripts that
// keywords are written in, or of those whose letters imitate them.
func latinLike(r rune) bool {
	return r < 0x0590 && (unicode.IsLetter(r) || unicode.IsDigit(r)) ||
		r >= 0xff10 && r <= 0xff5a || r >= 0x1d400 && r <= 0x1d7ff
}

// neighbours returns the visible runes before i and at or after j,
// skipping invisible characters, or -1 at the ends of text.
func neighbours(text []byte, i, j int) (prev, next rune) {
	prev, next = -1, -1
	lo, hi := max(0, i-maxInvisibleRun), min(len(text), j+maxInvisibleRun)
	for k := i; k > lo; {
		r, size := utf8.DecodeLastRune(text[:k])
		if classify(r) == invNone {
			prev = r
			break
		}
		k -= size
	}
	for k := j; k < hi; {
		r, size := utf8.DecodeRune(text[k:])
		if classify(r) == invNone {
			next = r
			break
		}
		k += size
	}
	return prev, next
}

// maxInvisibleRun bounds how far neighbours looks past invisible
// characters; beyond it a character has no visible neighbour.
const maxInvisibleRun = 256

// runEnd returns the end of the run of characters of class c starting at i.
func runEnd(text []byte, i int, c invisible) (end, count int) {
	for i < len(text) {
		r, size := utf8.DecodeRune(text[i:])
		if classify(r) != c {
			break
		}
		i += size
		count++
	}
	return i, count
}

// hasNonASCII reports whether text holds any byte outside ASCII. It tests eight bytes at a
// time, then the rest one by one.
func hasNonASCII(text []byte) bool {
	for len(text) >= 8 {
		if binary.LittleEndian.Uint64(text)&0x8080808080808080 != 0 {
			return true
		}
		text = text[8:]
	}
	for _, b := range text {
		if b >= 0x80 {
			return true
		}
	}
	return false
}

// decodeTags returns the ASCII that a run of tag characters spells.
func decodeTags(run []byte) string {
	out := make([]byte, 0, len(run)/4)
	for len(run) > 0 {
		r, size := utf8.DecodeRune(run)
		run = run[size:]
		if c := r - 0xe0000; c >= 0x20 && c < 0x7f {
			out = append(out, byte(c))
		}
	}
	return string(out)
}

// isFlagTagRun reports whether a tag run at i..j is the tail of an emoji
// subdivision flag: a black flag, lowercase letters or digits, then cancel.
func isFlagTagRun(text []byte, i, j int) bool {
	prev, _ := utf8.DecodeLastRune(text[:i])
	if prev != 0x1f3f4 {
		return false
	}
	last, _ := utf8.DecodeLastRune(text[i:j])
	if last != 0xe007f {
		return false
	}
	body := decodeTags(text[i:j])
	if len(body) < 2 || len(body) > 8 {
		return false
	}
	for _, c := range []byte(body) {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// decodeSelectors reads bytes hidden in variation selectors: FE00..FE0F
// carry 0..15 and E0100..E01EF carry 16..255.
func decodeSelectors(run []byte) []byte {
	out := make([]byte, 0, len(run)/4)
	for len(run) > 0 {
		r, size := utf8.DecodeRune(run)
		run = run[size:]
		switch {
		case r >= 0xfe00 && r <= 0xfe0f:
			out = append(out, byte(r-0xfe00))
		case r >= 0xe0100 && r <= 0xe01ef:
			out = append(out, byte(r-0xe0100+16))
		}
	}
	return out
}

// printable reports whether most of b is printable text worth re-scanning.
func printable(b []byte) bool {
	if len(b) == 0 || !utf8.Valid(b) {
		return false
	}
	good := 0
	for _, r := range string(b) {
		if r == '\n' || r == '\t' || r == '\r' || unicode.IsPrint(r) {
			good++
		}
	}
	return good*10 >= utf8.RuneCount(b)*9
}
