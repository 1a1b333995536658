package audit

import (
	"unicode"
	"unicode/utf8"
)

// confusables maps Cyrillic and Greek letters that look like Latin ones.
var confusables = map[rune]byte{
	'а': 'a', 'в': 'b', 'е': 'e', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'с': 'c', 'т': 't',
	'у': 'y', 'х': 'x', 'ѕ': 's', 'і': 'i', 'ј': 'j', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'һ': 'h', 'ӏ': 'l',
	'ԍ': 'g', 'ү': 'y', 'ɑ': 'a', 'ɡ': 'g', 'ı': 'i', 'ȷ': 'j',
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T',
	'У': 'Y', 'Х': 'X', 'Ѕ': 'S', 'І': 'I', 'Ј': 'J', 'Ԁ': 'D', 'Ԛ': 'Q', 'Ԝ': 'W', 'Һ': 'H', 'Ӏ': 'I',
	'α': 'a', 'ο': 'o', 'ν': 'v', 'ρ': 'p', 'ι': 'i', 'κ': 'k', 'υ': 'u', 'ϲ': 'c', 'ϳ': 'j',
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O',
	'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
}

// foldRune returns the ASCII letter or digit that r imitates: confusable
// letters, fullwidth forms and mathematical alphanumerics.
func foldRune(r rune) (byte, bool) {
	if b, ok := confusables[r]; ok {
		return b, true
	}
	switch {
	case r >= 0xff10 && r <= 0xff19, r >= 0xff21 && r <= 0xff3a, r >= 0xff41 && r <= 0xff5a:
		return byte(r - 0xfee0), true
	case r >= 0x1d400 && r <= 0x1d6a3:
		i := (r - 0x1d400) % 52
		if i < 26 {
			return byte('A' + i), true
		}
		return byte('a' + i - 26), true
	case r >= 0x1d7ce && r <= 0x1d7ff:
		return byte('0' + (r-0x1d7ce)%10), true
	}
	return 0, false
}

func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// wordAt returns the bounds of the word around byte offset i, counting
// invisible characters inside it as part of the word and looking no
// further than lo and hi.
func wordAt(text []byte, lo, hi, i int) (start, end int) {
	start, end = i, i
	for start > lo {
		r, size := utf8.DecodeLastRune(text[:start])
		if !isWordRune(r) && classify(r) == invNone {
			break
		}
		start -= size
	}
	for end < hi {
		r, size := utf8.DecodeRune(text[end:])
		if !isWordRune(r) && classify(r) == invNone {
			break
		}
		end += size
	}
	return start, end
}

// wordMix counts a word's ASCII letters, foldable look-alikes and other letters.
func wordMix(word []byte) (ascii, fold, other int) {
	for _, r := range string(word) {
		switch _, ok := foldRune(r); {
		case r < 0x80 && isWordRune(r):
			ascii++
		case ok:
			fold++
		case isWordRune(r):
			other++
		}
	}
	return ascii, fold, other
}

// normalized is text with invisible characters removed and look-alike
// letters folded to ASCII, with a map back to the original offsets.
type normalized struct {
	text []byte
	offs []int32 // offs[i] is the original offset of text[i]; one extra at the end
}

// normalize removes invisible characters and folds words written only
// with ASCII and look-alike letters; ok is false when nothing changed.
func normalize(text []byte) (n normalized, ok bool) {
	n.text = make([]byte, 0, len(text))
	n.offs = make([]int32, 0, len(text)+1)
	changed := false
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRune(text[i:])
		if r < 0x80 {
			n.emit(text[i], i)
			i++
			continue
		}
		if classify(r) != invNone {
			changed = true
			i += size
			continue
		}
		if _, ok := foldRune(r); ok && isWordRune(r) {
			s, e := wordAt(text, max(0, i-maxWord), min(len(text), i+maxWord), i)
			if _, _, other := wordMix(text[s:e]); other == 0 {
				changed = true
			} else {
				changed = n.emitRaw(text, i, e) || changed
				i = e
				continue
			}
			i = n.foldWord(text, i, e)
			continue
		}
		for k := 0; k < size; k++ {
			n.emit(text[i+k], i+k)
		}
		i += size
	}
	n.offs = append(n.offs, int32(len(text)))
	return n, changed
}

// maxWord bounds the bytes examined around a look-alike letter.
const maxWord = 1024

// emitRaw emits text[i:end] unchanged except for dropped invisibles,
// and reports whether it dropped any.
func (n *normalized) emitRaw(text []byte, i, end int) bool {
	dropped := false
	for i < end {
		r, size := utf8.DecodeRune(text[i:])
		if classify(r) == invNone {
			for k := 0; k < size; k++ {
				n.emit(text[i+k], i+k)
			}
		} else {
			dropped = true
		}
		i += size
	}
	return dropped
}

func (n *normalized) emit(b byte, off int) {
	n.text = append(n.text, b)
	n.offs = append(n.offs, int32(off))
}

// foldWord emits text[i:end] with look-alikes folded and invisibles dropped.
func (n *normalized) foldWord(text []byte, i, end int) int {
	for i < end {
		r, size := utf8.DecodeRune(text[i:])
		switch b, ok := foldRune(r); {
		case ok:
			n.emit(b, i)
		case classify(r) != invNone:
		default:
			for k := 0; k < size; k++ {
				n.emit(text[i+k], i+k)
			}
		}
		i += size
	}
	return end
}
