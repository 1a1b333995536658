package codeflow

import (
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"
	"unicode/utf8"
)

// pyFold evaluates the string operations code hides text with, when the
// text is known: decoding, joining, formatting, reversing, character codes.
func pyFold(c *call) (value, bool) {
	a := c.arg(0, "")
	switch c.q {
	case "base64.b64decode", "base64.decodebytes", "base64.standard_b64decode", "base64.urlsafe_b64decode", "b64decode":
		return decoded(a, decodeBase64)
	case "bytes.fromhex", "binascii.unhexlify", "binascii.a2b_hex", "unhexlify":
		return decoded(a, decodeHex)
	case "codecs.decode":
		if e := c.arg(1, "encoding"); e.known() {
			switch strings.ToLower(strings.ReplaceAll(e.s, "_", "")) {
			case "rot13":
				return decoded(a, func(s string) (string, bool) { return rot13(s), true })
			case "base64":
				return decoded(a, decodeBase64)
			case "hex":
				return decoded(a, decodeHex)
			}
		}
	case "chr":
		if n, err := strconv.Atoi(a.s); err == nil && a.known() && n >= 0 && n < 0x110000 {
			return value{s: string(rune(n)), built: true, hidden: true}, true
		}
	case "reversed":
		if a.known() {
			return value{s: reverse(a.s), built: true, hidden: true}, true
		}
	case "map":
		return mapChr(c)
	case "str", "bytes", "bytearray":
		return a, true
	}
	return strMethod(c)
}

// strMethod is a method of a known string.
func strMethod(c *call) (value, bool) {
	r := c.recv
	if r.kind != vData || c.q != "."+c.name {
		return value{}, false
	}
	switch c.name {
	case "decode", "encode", "strip", "lstrip", "rstrip":
		if c.name == "decode" && c.arg(0, "encoding").known() && strings.Contains(strings.ToLower(c.arg(0, "").s), "base64") {
			return decoded(r, decodeBase64)
		}
		return r, true
	case "lower", "upper":
		v := r
		if c.name == "lower" {
			v.s = strings.ToLower(r.s)
		} else {
			v.s = strings.ToUpper(r.s)
		}
		return v, true
	case "join":
		if !r.known() {
			break
		}
		items := c.arg(0, "").items
		it := c.arg(0, "")
		if len(items) == 0 {
			if it.known() {
				v := it
				v.built = true
				return v, true
			}
			break
		}
		parts := make([]string, len(items))
		v := value{built: true}
		for i, x := range items {
			parts[i] = textOf(x)
			v = join(v, x)
		}
		v.s, v.built = clip(strings.Join(parts, r.s)), true
		return v, true
	case "format":
		if r.known() {
			v := join(r, c.all())
			v.s, v.built = braces(r.s, c), true
			return v, true
		}
	case "replace":
		if o, n := c.arg(0, ""), c.arg(1, ""); r.known() && o.known() && n.known() && o.s != "" {
			v := r
			v.s, v.built = clip(strings.ReplaceAll(r.s, o.s, n.s)), true
			return v, true
		}
	}
	return value{}, false
}

// braces fills a str.format template's fields with the known arguments.
func braces(f string, c *call) string {
	var b strings.Builder
	next := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '{' {
			b.WriteByte(f[i])
			continue
		}
		if i+1 < len(f) && f[i+1] == '{' {
			b.WriteByte('{')
			i++
			continue
		}
		j := strings.IndexByte(f[i:], '}')
		if j < 0 {
			b.WriteString(f[i:])
			break
		}
		field, _, _ := strings.Cut(f[i+1:i+j], ":")
		field, _, _ = strings.Cut(field, "!")
		var v value
		switch n, err := strconv.Atoi(field); {
		case field == "":
			v = c.arg(next, "")
			next++
		case err == nil:
			v = c.arg(n, "")
		default:
			v = c.arg(-1, field)
		}
		b.WriteString(textOf(v))
		i += j
	}
	return clip(b.String())
}

// mapChr is map(chr, [104, 116, ...]) as the text it spells.
func mapChr(c *call) (value, bool) {
	f, list := c.arg(0, ""), c.arg(1, "")
	if f.kind != vModule || f.s != "chr" || len(list.items) == 0 {
		return value{}, false
	}
	var b strings.Builder
	for _, it := range list.items {
		n, err := strconv.Atoi(it.s)
		if err != nil || n < 0 || n >= 0x110000 {
			b.WriteString(unknown)
			continue
		}
		b.WriteRune(rune(n))
	}
	v := value{s: b.String(), built: true, hidden: true}
	v.items = nil
	for _, r := range b.String() {
		v.items = append(v.items, value{s: string(r)})
		if len(v.items) >= maxItems {
			break
		}
	}
	return v, true
}

// decoded applies dec to a's known text.
func decoded(a value, dec func(string) (string, bool)) (value, bool) {
	if !a.known() {
		return derived(a), true
	}
	s, ok := dec(a.s)
	if !ok {
		return derived(a), true
	}
	return value{s: clip(s), built: true, hidden: true}, true
}

func decodeBase64(s string) (string, bool) {
	s = strings.TrimSpace(s)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil && utf8.Valid(b) {
			return string(b), true
		}
	}
	return "", false
}

func decodeHex(s string) (string, bool) {
	b, err := hex.DecodeString(strings.ReplaceAll(strings.TrimSpace(s), " ", ""))
	if err != nil || !utf8.Valid(b) {
		return "", false
	}
	return string(b), true
}

func rot13(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case r >= 'A' && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, s)
}
