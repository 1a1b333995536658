package targetdir

import (
	"encoding/json"
	"unicode/utf8"
	"unsafe"
)

// decodeManifest reads a manifest file into m, as json.Unmarshal would: fields the file does
// not hold keep what m had. Manifests as skillgit writes them are read by
// a decoder of their own shape, several times faster than encoding/json on the 10,000 entries
// of a large target; anything it does not take in whole (another key, a \u escape, a number
// that is not a small integer, text after the object) goes to encoding/json instead, so the
// result is always what encoding/json would give.
func decodeManifest(data []byte, m *manifest) error {
	fast := manifest{Version: m.Version}
	if d := (manifestDecoder{data: data}); d.manifest(&fast) {
		m.Version, m.Skills = fast.Version, fast.Skills
		return nil
	}
	return json.Unmarshal(data, m)
}

// manifestDecoder reads the JSON of a manifest in the shape writeManifest gives it; every
// method reports false on anything else, and then the whole result is thrown away. Its
// strings share the bytes of data, which must not change afterwards.
type manifestDecoder struct {
	data []byte
	pos  int
}

func (d *manifestDecoder) manifest(m *manifest) bool {
	return d.object(func(key string) bool {
		switch key {
		case "version":
			n, ok := d.smallInt()
			m.Version = n
			return ok
		case "skills":
			if m.Skills != nil {
				return false
			}
			// A manifest as skillgit writes it takes about 250 bytes an entry.
			m.Skills = make(map[string]manifestEntry, len(d.data)/256)
			return d.object(func(name string) bool {
				var e manifestEntry
				if !d.entry(&e) {
					return false
				}
				m.Skills[name] = e
				return true
			})
		}
		return false
	}) && d.end() && m.Skills != nil
}

func (d *manifestDecoder) entry(e *manifestEntry) bool {
	return d.object(func(key string) bool {
		var dst *string
		switch key {
		case "source":
			dst = &e.Source
		case "written":
			dst = &e.Written
		case "pending":
			dst = &e.Pending
		case "stat":
			dst = &e.Stat
		case "mode":
			s, ok := d.str()
			e.Mode = Mode(s)
			return ok
		default:
			return false
		}
		s, ok := d.str()
		*dst = s
		return ok
	})
}

// object reads {"key": value, ...}, calling field for each key with the decoder at its value.
func (d *manifestDecoder) object(field func(key string) bool) bool {
	if !d.byte('{') {
		return false
	}
	if d.space(); d.peek() == '}' {
		d.pos++
		return true
	}
	for {
		key, ok := d.str()
		if !ok || !d.byte(':') || !field(key) {
			return false
		}
		d.space()
		switch d.peek() {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return true
		default:
			return false
		}
	}
}

// byte reads c after any space.
func (d *manifestDecoder) byte(c byte) bool {
	d.space()
	if d.peek() != c {
		return false
	}
	d.pos++
	return true
}

func (d *manifestDecoder) peek() byte {
	if d.pos < len(d.data) {
		return d.data[d.pos]
	}
	return 0
}

func (d *manifestDecoder) space() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// end reports whether nothing but space is left.
func (d *manifestDecoder) end() bool {
	d.space()
	return d.pos == len(d.data)
}

// smallInt reads a number of one to nine digits, with no sign, fraction or leading zero.
func (d *manifestDecoder) smallInt() (int, bool) {
	d.space()
	start, n := d.pos, 0
	for d.pos < len(d.data) && d.pos-start < 10 && '0' <= d.data[d.pos] && d.data[d.pos] <= '9' {
		n = n*10 + int(d.data[d.pos]-'0')
		d.pos++
	}
	digits := d.pos - start
	return n, digits >= 1 && digits <= 9 && (digits == 1 || d.data[start] != '0')
}

// str reads a string of valid UTF-8 whose escapes are the two-character ones.
func (d *manifestDecoder) str() (string, bool) {
	if !d.byte('"') {
		return "", false
	}
	start := d.pos
	d.pos += plainRun(d.data[d.pos:])
	if d.pos < len(d.data) && d.data[d.pos] == '"' {
		d.pos++
		return d.text(d.data[start : d.pos-1]), true // all printable ASCII
	}
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			raw := d.data[start:d.pos]
			d.pos++
			return d.text(raw), utf8.Valid(raw)
		case c == '\\':
			return d.escaped(start)
		case c < 0x20:
			return "", false
		}
		d.pos++
	}
	return "", false
}

// text returns the bytes of a string without escapes as a string that shares them: the
// decoder's input is never changed once it is read, and lives as long as the manifest.
func (d *manifestDecoder) text(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	return unsafe.String(&raw[0], len(raw))
}

// escaped finishes a string begun at start in which d.pos is at the first backslash.
func (d *manifestDecoder) escaped(start int) (string, bool) {
	out := make([]byte, 0, d.pos-start+64)
	out = append(out, d.data[start:d.pos]...)
	for d.pos < len(d.data) {
		n := plainRun(d.data[d.pos:])
		out = append(out, d.data[d.pos:d.pos+n]...)
		d.pos += n
		if d.pos >= len(d.data) {
			break
		}
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			return d.text(out), utf8.Valid(out)
		case c < 0x20:
			return "", false
		case c != '\\':
			out = append(out, c)
			d.pos++
			continue
		}
		if d.pos+1 >= len(d.data) {
			return "", false
		}
		r := shortEscapes[d.data[d.pos+1]]
		if r == 0 {
			return "", false
		}
		out = append(out, r)
		d.pos += 2
	}
	return "", false
}

// shortEscapes maps the letter after a backslash to the byte it stands for, 0 for a letter
// that is not one; \u is left to encoding/json.
var shortEscapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// Masks for testing the eight bytes of a word at once.
const (
	eachByte  = 0x0101010101010101
	highBits  = 0x8080808080808080
	quoteByte = eachByte * '"'
	slashByte = eachByte * '\\'
	lessBytes = eachByte * '<'
	moreBytes = eachByte * '>'
	ampBytes  = eachByte * '&'
)

// plainRun returns how many bytes at the start of b a JSON string holds as they are, with no
// decoding to do: printable ASCII other than the quote and the backslash.
func plainRun(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	return asIsRun(unsafe.String(&b[0], len(b)), false)
}

// asIsRun returns how many bytes at the start of s are printable ASCII other than the quote
// and the backslash, and, with html, other than <, > and &, which encoding/json escapes
// too. It reads eight bytes at a time.
func asIsRun(s string, html bool) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if x&highBits != 0 || hasByteBelow(x, 0x20) || hasZeroByte(x^quoteByte) || hasZeroByte(x^slashByte) ||
			html && (hasZeroByte(x^lessBytes) || hasZeroByte(x^moreBytes) || hasZeroByte(x^ampBytes)) {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || html && (c == '<' || c == '>' || c == '&') {
			break
		}
	}
	return i
}

// hasZeroByte reports whether a byte of x is zero.
func hasZeroByte(x uint64) bool { return (x-eachByte)&^x&highBits != 0 }

// hasByteBelow reports whether a byte of x, all of whose bytes are below 0x80, is below n.
func hasByteBelow(x uint64, n uint64) bool { return (x-eachByte*n)&^x&highBits != 0 }
