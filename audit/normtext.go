package audit

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// Text normalised first: HTML entities and percent escapes spell words that
// the rules read as written only once they are decoded ("&#105;gnore",
// "ignore%20previous%20instructions"). Agents read the decoded words, so the
// line that holds such an escape is decoded and scanned again, and what it
// finds is placed where the escape is.

const (
	maxTextLine = 2048 // bytes of a line decoded around its escapes
	maxShownRun = longBlob - 1
)

// namedEntities are the HTML character references written by name that
// skills use, with what they stand for.
var namedEntities = map[string]string{
	"amp": "&", "lt": "<", "gt": ">", "quot": `"`, "apos": "'", "nbsp": " ", "tab": "\t",
	"newline": "\n", "colon": ":", "sol": "/", "period": ".", "comma": ",", "lpar": "(", "rpar": ")",
	"lsqb": "[", "rsqb": "]", "lbrack": "[", "rbrack": "]", "excl": "!", "num": "#", "dollar": "$",
	"percnt": "%", "ast": "*", "equals": "=", "quest": "?", "commat": "@", "vert": "|", "grave": "`",
	"lcub": "{", "rcub": "}", "lbrace": "{", "rbrace": "}", "hyphen": "-", "dash": "-", "lowbar": "_",
	"ensp": " ", "emsp": " ", "thinsp": " ", "zwj": "", "zwnj": "", "shy": "",
}

// entityAt decodes the HTML character reference at t[0] == '&' and
// returns what it stands for and its length; n is 0 when there is none.
func entityAt(t []byte) (s string, n int) {
	if len(t) < 3 || t[0] != '&' {
		return "", 0
	}
	if t[1] == '#' {
		return numericEntity(t)
	}
	j := 1
	for j < len(t) && j < 10 && isASCIILetter(t[j]) {
		j++
	}
	if j >= len(t) || t[j] != ';' {
		return "", 0
	}
	v, ok := namedEntities[string(bytes.ToLower(t[1:j]))]
	if !ok {
		return "", 0
	}
	return v, j + 1
}

// numericEntity decodes "&#105;" or "&#x69;"; the semicolon may be left
// out, as browsers and agents read it without one too.
func numericEntity(t []byte) (string, int) {
	j, base := 2, 10
	if j < len(t) && (t[j] == 'x' || t[j] == 'X') {
		j, base = 3, 16
	}
	k := j
	for k < len(t) && k-j < 8 && (base == 10 && '0' <= t[k] && t[k] <= '9' || base == 16 && isHexDigit(t[k])) {
		k++
	}
	if k == j {
		return "", 0
	}
	v, err := strconv.ParseUint(string(t[j:k]), base, 32)
	if err != nil || v == 0 || v > utf8.MaxRune || !utf8.ValidRune(rune(v)) {
		return "", 0
	}
	if k < len(t) && t[k] == ';' {
		k++
	}
	return string(rune(v)), k
}

// percentAt decodes the %XX escapes at t[0] == '%' that make one
// character (UTF-8 takes up to four); n is 0 when there is none.
func percentAt(t []byte) (s string, n int) {
	var buf [4]byte
	k := 0
	for k < 4 && 3*k+3 <= len(t) && t[3*k] == '%' && isHexDigit(t[3*k+1]) && isHexDigit(t[3*k+2]) {
		v, _ := strconv.ParseUint(string(t[3*k+1:3*k+3]), 16, 8)
		buf[k] = byte(v)
		k++
		if buf[0] < utf8.RuneSelf || utf8.FullRune(buf[:k]) {
			break
		}
	}
	if k == 0 || !utf8.Valid(buf[:k]) {
		return "", 0
	}
	return string(buf[:k]), 3 * k
}

func isASCIILetter(b byte) bool { return 'a' <= b|0x20 && b|0x20 <= 'z' }

func isASCIIAlnum(b byte) bool { return isASCIILetter(b) || '0' <= b && b <= '9' }

// escapeAtText decodes the entity or percent escape at t[0].
func escapeAtText(t []byte) (string, int) {
	if t[0] == '&' {
		return entityAt(t)
	}
	return percentAt(t)
}

// revealing reports whether the escape at text[i:i+n], which stands for s,
// hides what a rule reads: a letter or digit, the space between two words
// outside a link's address, or the "<" that opens a tag or a chat token.
// "&amp;" in a URL, "&nbsp;" in a table and "%20" in a link hide nothing.
func revealing(text []byte, i, n int, s string) bool {
	switch {
	case s == "":
		return false
	case len(s) == 1 && isASCIIAlnum(s[0]):
		return true
	case s == "<":
		return i+n < len(text) && (isASCIILetter(text[i+n]) || text[i+n] == '|' || text[i+n] == '/')
	case s == " " || s == "\t" || s == "\n":
		return i > 0 && isASCIILetter(text[i-1]) && i+n < len(text) && isASCIILetter(text[i+n]) && !inAddress(text, i)
	}
	return false
}

// tokenEnd returns the end of the run of text without spaces at i, looking
// no further than maxTextLine bytes.
func tokenEnd(text []byte, i int) int {
	e := i
	for e < len(text) && e < i+maxTextLine && !isSpaceByte(text[e]) {
		e++
	}
	return e
}

// inAddress reports whether offset i is inside a URL or the target of a
// Markdown link: the run of text without spaces around it holds "://",
// "](" or a query.
func inAddress(text []byte, i int) bool {
	s := i
	for s > 0 && s > i-maxTextLine && !isSpaceByte(text[s-1]) {
		s--
	}
	tok := text[s:tokenEnd(text, i)]
	return bytes.Contains(tok, []byte("://")) || bytes.Contains(tok, []byte("](")) || bytes.ContainsAny(tok, "?=/")
}

func isSpaceByte(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// textBlobs returns, for each line of text that holds a revealing entity
// or percent escape, the line decoded. The blob is placed at the word that
// holds the first such escape and spans at most maxShownRun bytes, so that
// a line is not itself reported as a long encoded run.
// Escapes inside a run that prior, the runs found already, decoded are
// left to that run.
func textBlobs(text []byte, prior []blob, add func(blob)) {
	for i, found := 0, 0; i < len(text) && found < maxBlobs; {
		j := bytes.IndexAny(text[i:], "&%")
		if j < 0 {
			return
		}
		i += j
		s, n := escapeAtText(text[i:])
		if n == 0 || inBlob(prior, i) {
			i++
			continue
		}
		if !revealing(text, i, n, s) {
			i += n
			if (s == " " || s == "\t" || s == "\n") && i-n > 0 && isASCIILetter(text[i-n-1]) && i < len(text) && isASCIILetter(text[i]) {
				i = max(i, tokenEnd(text, i)) // the rest of an address hides no word either
			}
			continue
		}
		ls, le := lineStartAt(text, i), lineEndAt(text, i)
		ls, le = max(ls, i-maxTextLine/2), min(le, i+maxTextLine/2)
		data := decodeText(text[ls:le])
		ws := i
		for ws > ls && isWordByte(text[ws-1]) {
			ws--
		}
		add(blob{start: ws, end: min(le, ws+maxShownRun), encoding: "HTML or URL escaped", data: data})
		found++
		i = max(le, i+n)
	}
}

// decodeText replaces every entity and percent escape in t by what it
// stands for.
func decodeText(t []byte) []byte {
	out := make([]byte, 0, len(t))
	for i := 0; i < len(t); {
		if c := t[i]; c == '&' || c == '%' {
			if s, n := escapeAtText(t[i:]); n > 0 {
				out = append(out, s...)
				i += n
				continue
			}
		}
		out = append(out, t[i])
		i++
	}
	return out
}

func inBlob(blobs []blob, i int) bool {
	for _, b := range blobs {
		if b.start <= i && i < b.end {
			return true
		}
	}
	return false
}
