package audit

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"strconv"
)

// blob is a run of encoded text and what it decodes to.
type blob struct {
	start, end int
	encoding   string // "base64", "hex" or "escapes"
	data       []byte
}

const (
	minBlob     = 24      // shortest encoded run worth decoding
	longBlob    = 160     // an encoded run this long is a finding by itself
	maxBlobs    = 64      // decoded runs re-scanned per text
	maxDecoded  = 1 << 20 // decoded bytes re-scanned per text
	maxDepth    = 2       // nested decodings re-scanned
	minEscapes  = 8       // shortest run of \xNN, \u00NN or %NN escapes
	mimeLineMin = 40      // a line this long of pure base64 may continue a block
)

// isB64 reports whether b belongs to the body of a base64 run; padding
// ends a run, so text such as "x=<base64>" still yields the base64.
func isB64(b byte) bool { return b64Byte[b] }

var b64Byte = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		t[c] = 'A' <= b && b <= 'Z' || 'a' <= b && b <= 'z' || '0' <= b && b <= '9' ||
			b == '+' || b == '/' || b == '-' || b == '_'
	}
	return t
}()

func isHexDigit(b byte) bool {
	return '0' <= b && b <= '9' || 'a' <= b && b <= 'f' || 'A' <= b && b <= 'F'
}

// findBlobs returns the encoded runs in text that decode to something.
func findBlobs(text []byte) []blob {
	var out []blob
	budget := maxDecoded
	add := func(b blob) {
		if len(out) < maxBlobs && budget > 0 && len(b.data) > 0 {
			budget -= len(b.data)
			out = append(out, b)
		}
	}
	for i := 0; i < len(text); {
		if !isB64(text[i]) || i > 0 && isB64(text[i-1]) {
			if c := text[i]; c != '\\' && c != '%' {
				i++ // what nextEscapeOrRun does with any other byte
				continue
			}
			i = nextEscapeOrRun(text, i, add)
			continue
		}
		end := runOf(text, i)
		if end-i >= minBlob {
			end = extendMIME(text, i, end)
			if b, ok := decodeRun(text, i, end); ok {
				add(b)
			}
		}
		i = end
	}
	textBlobs(text, out, add)
	frontMatterBlobs(text, add)
	phraseBlobs(text, add)
	return out
}

// nextEscapeOrRun handles an escape sequence run at i, if any, and
// returns where scanning continues.
func nextEscapeOrRun(text []byte, i int, add func(blob)) int {
	if text[i] == '\\' || text[i] == '%' {
		if end, data := escapeRun(text, i); end > i {
			add(blob{start: i, end: end, encoding: "escapes", data: data})
			return end
		}
	}
	return i + 1
}

func runOf(text []byte, i int) int {
	for i < len(text) && isB64(text[i]) {
		i++
	}
	for pad := 0; pad < 2 && i < len(text) && text[i] == '='; pad++ {
		i++
	}
	return i
}

// extendMIME joins the following lines of a base64 block wrapped at a
// fixed width, as mail and PEM tools write them.
func extendMIME(text []byte, start, end int) int {
	if end-start < mimeLineMin || lineStartAt(text, start) != start {
		return end
	}
	for end < len(text) && text[end] == '\n' || end+1 < len(text) && text[end] == '\r' && text[end+1] == '\n' {
		next := end + 1
		if text[end] == '\r' {
			next++
		}
		e := runOf(text, next)
		if e == next || (e < len(text) && text[e] != '\n' && text[e] != '\r') {
			break
		}
		end = e
		if e-next < mimeLineMin {
			break
		}
	}
	return end
}

func decodeRun(text []byte, start, end int) (blob, bool) {
	raw := bytes.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, text[start:end])
	if isAllHex(raw) && len(raw)%2 == 0 {
		data, err := hex.DecodeString(string(raw))
		return blob{start, end, "hex", data}, err == nil
	}
	data, ok := decodeBase64(raw)
	return blob{start, end, "base64", data}, ok
}

func isAllHex(b []byte) bool {
	for _, c := range b {
		if !isHexDigit(c) {
			return false
		}
	}
	return true
}

func decodeBase64(raw []byte) ([]byte, bool) {
	raw = bytes.TrimRight(raw, "=")
	if bytes.IndexByte(raw, '=') >= 0 {
		return nil, false
	}
	if len(raw)%4 == 1 {
		raw = raw[:len(raw)-1]
	}
	enc := base64.RawStdEncoding
	if bytes.ContainsAny(raw, "-_") {
		if bytes.ContainsAny(raw, "+/") {
			return nil, false
		}
		enc = base64.RawURLEncoding
	}
	data, err := enc.DecodeString(string(raw))
	return data, err == nil
}

// escapeRun decodes a run of \xNN, \u00NN or %NN escapes at i.
func escapeRun(text []byte, i int) (int, []byte) {
	var data []byte
	j := i
	for j < len(text) {
		b, n := escapeAt(text[j:])
		if n == 0 {
			break
		}
		data = append(data, b)
		j += n
	}
	if len(data) < minEscapes {
		return i, nil
	}
	return j, data
}

func escapeAt(t []byte) (byte, int) {
	var digits []byte
	var n int
	switch {
	case len(t) >= 4 && t[0] == '\\' && (t[1] == 'x' || t[1] == 'X'):
		digits, n = t[2:4], 4
	case len(t) >= 6 && t[0] == '\\' && t[1] == 'u' && t[2] == '0' && t[3] == '0':
		digits, n = t[4:6], 6
	case len(t) >= 3 && t[0] == '%':
		digits, n = t[1:3], 3
	default:
		return 0, 0
	}
	v, err := strconv.ParseUint(string(digits), 16, 8)
	if err != nil {
		return 0, 0
	}
	return byte(v), n
}

// inertBinary reports whether decoded data is an image or a DER
// certificate: common in documentation and nothing to execute.
func inertBinary(data []byte) bool {
	if kind, _ := sniff(data); kind == binImage {
		return true
	}
	return len(data) > 2 && data[0] == 0x30 && (data[1] == 0x82 || data[1] == 0x81)
}
