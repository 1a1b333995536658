package audit

import (
	"bytes"
	"slices"
)

// quickPair is one key of the frontmatter's top-level mapping with its scalar value, placed as
// yaml.v3 places the value's node: a 1-based line of the YAML text and a 1-based column.
type quickPair struct {
	key, value   string
	line, column int
	null         bool // the key has no value of its own: a nested block or nothing
}

// quickFrontMatter reads the top-level pairs of frontmatter written in the plain subset of
// YAML that nearly every SKILL.md uses, without a YAML parser: ASCII lines of `key: value`
// whose values are plain, or quoted on one line without escapes, and blocks of such lines
// under a key with no value. ok is false for anything else, which yaml.v3 must then read:
// comments, flow and block scalars, sequences, anchors, tags, tabs, duplicate keys, long keys,
// values that go on over lines, and anything outside printable ASCII.
func quickFrontMatter(y []byte) (pairs []quickPair, ok bool) {
	for _, b := range y {
		if (b < 0x20 || b > 0x7e) && b != '\n' {
			return nil, false
		}
	}
	var nested []string // keys of the current nested block
	indent := 0         // of the current nested block; 0 when there is none yet
	open := false       // the last top-level key has no value, so a block may follow
	for i, rest := 0, y; len(rest) > 0 || i == 0; i++ {
		l := rest
		if j := bytes.IndexByte(rest, '\n'); j >= 0 {
			l, rest = rest[:j], rest[j+1:]
		} else {
			rest = nil
		}
		body := bytes.TrimLeft(l, " ")
		if len(body) == 0 {
			continue
		}
		depth := len(l) - len(body)
		if depth > 0 {
			if !open || indent != 0 && depth != indent {
				return nil, false
			}
			indent = depth
			p, ok := quickLine(body, i+1, depth)
			if !ok || p.null || slices.Contains(nested, p.key) {
				return nil, false
			}
			nested = append(nested, p.key)
			continue
		}
		if bytes.HasPrefix(l, []byte("---")) || bytes.HasPrefix(l, []byte("...")) {
			return nil, false
		}
		p, ok := quickLine(l, i+1, 0)
		if !ok || p.null && frontMatterKeys[p.key] || slices.ContainsFunc(pairs, func(q quickPair) bool { return q.key == p.key }) {
			return nil, false
		}
		pairs = append(pairs, p)
		open, indent, nested = p.null, 0, nested[:0]
	}
	return pairs, len(pairs) > 0
}

// frontMatterKeys are the keys the audit reads the values of.
var frontMatterKeys = set("name", "description", "allowed-tools")

// maxQuickKey bounds the keys read without yaml.v3, which refuses a key longer than 1024
// characters.
const maxQuickKey = 128

// quickLine reads one `key: value` line whose key starts at column depth+1.
func quickLine(l []byte, line, depth int) (quickPair, bool) {
	k := 0
	for k < len(l) && (isWordByte(l[k]) || k > 0 && (l[k] == '-' || l[k] == '.')) {
		k++
	}
	if k == 0 || k > maxQuickKey || k == len(l) || l[k] != ':' {
		return quickPair{}, false
	}
	p := quickPair{key: string(l[:k]), line: line}
	rest := l[k+1:]
	if len(bytes.TrimRight(rest, " ")) == 0 {
		p.null = true
		return p, true
	}
	if rest[0] != ' ' {
		return quickPair{}, false
	}
	v := bytes.TrimLeft(rest, " ")
	p.column = depth + k + 1 + (len(rest) - len(v)) + 1
	value, ok := quickScalar(bytes.TrimRight(v, " "))
	p.value = value
	return p, ok
}

// quickScalar returns the value of a scalar written on one line, quoted without escapes or
// plain, as yaml.v3 reads it.
func quickScalar(v []byte) (string, bool) {
	switch q := v[0]; q {
	case '"', '\'':
		if len(v) < 2 || v[len(v)-1] != q || bytes.IndexByte(v[1:len(v)-1], q) >= 0 || q == '"' && bytes.IndexByte(v, '\\') >= 0 {
			return "", false
		}
		return string(v[1 : len(v)-1]), true
	case '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '%', '@', '`':
		return "", false
	}
	if bytes.Contains(v, []byte(": ")) || bytes.Contains(v, []byte(" #")) || v[len(v)-1] == ':' {
		return "", false
	}
	return string(v), true
}
