package catalog

import (
	"slices"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// The plain-frontmatter reader decodes the frontmatter most skills have, one
// "key: value" a line with at most one level of nested keys, without the YAML
// library, which costs a listing most of its time and memory. It builds the
// very yaml.Node tree the library builds, so that every check after it is
// shared, and it accepts only a strict subset of YAML whose meaning is plain:
//
//   - every line is blank, a top-level "key: value", a top-level "key:" that
//     opens a mapping, or a "key: value" of that mapping, indented by the
//     same number of spaces as its first one;
//   - keys are letters, digits, '_', '-' and '.', starting with a letter,
//     digit or '_', each used once in its mapping;
//   - a value is a plain scalar that starts with no YAML indicator and holds
//     no ": " and no " #", or a one-line quoted scalar without escapes ('"'
//     with no '\\' and no '"' inside, '\'' with no '\'' inside);
//   - no tabs, carriage returns, control characters, line-breaking runes or
//     byte order marks, anywhere.
//
// Anything else — comments, anchors, tags, flow collections, lists, block
// and multi-line scalars, empty values, directives — goes to the YAML
// library, which then decides. A differential test holds the two to the same
// tree on everything the reader accepts.

// Bounds of what the reader accepts; anything larger goes to the library.
const (
	maxPlainKey   = 128
	maxPlainLines = 64
)

// plainLine is one key line of plain frontmatter.
type plainLine struct {
	line, indent int
	key          string
	value        string // empty for a key that opens a mapping
	valueCol     int    // 1-based column of the value's first character
	style        yaml.Style
}

// plainScratch holds what the reader builds for one block, reused from one
// block to the next: nothing of it outlives the checks but the strings.
type plainScratch struct {
	lines []plainLine
	nodes []yaml.Node
	ptrs  []*yaml.Node
}

// plainFrontmatter decodes block, which spans the opening "---" line through
// the closing one, into the document node decodeBlock would return, with ok
// false when the block is not plain frontmatter. The tree lives in scratch
// (a new one when nil) until its next use.
func plainFrontmatter(block []byte, scratch *plainScratch) (doc *yaml.Node, ok bool) {
	body, ok := plainBody(block)
	if !ok {
		return nil, false
	}
	if scratch == nil {
		scratch = new(plainScratch)
	}
	lines, ok := plainLines(string(body), scratch.lines[:0])
	scratch.lines = lines
	if !ok {
		return nil, false
	}
	return scratch.tree(), true
}

// plainBody returns the lines between an opening "---\n" and a closing
// "---" line written exactly so, or false.
func plainBody(block []byte) ([]byte, bool) {
	const open = delimiter + "\n"
	if len(block) < 2*len(open) || string(block[:len(open)]) != open {
		return nil, false
	}
	end := len(block)
	if block[end-1] == '\n' {
		end--
	}
	start := end - len(delimiter)
	if string(block[start:end]) != delimiter || block[start-1] != '\n' || start <= len(open) {
		return nil, false
	}
	return block[len(open):start], true
}

// plainLines appends the key lines of body, which ends with a newline, to
// lines; ok is false at the first line outside the plain subset.
func plainLines(body string, lines []plainLine) ([]plainLine, bool) {
	top, first := 0, 0 // the line numbers of the last top-level key and of its first child
	for n := 2; body != ""; n++ {
		i := strings.IndexByte(body, '\n')
		text := body[:i]
		body = body[i+1:]
		if strings.TrimLeft(text, " ") == "" {
			continue
		}
		pl, ok := plainKeyLine(text, n)
		if !ok || len(lines) == maxPlainLines {
			return lines, false
		}
		switch {
		case pl.indent == 0:
			if opensEmpty(lines, top, first) || repeated(lines, 0, pl.key) {
				return lines, false
			}
			top, first = len(lines), 0
		case len(lines) == 0 || lines[top].value != "" || pl.value == "":
			return lines, false
		case first == 0:
			first = len(lines)
		case pl.indent != lines[first].indent || repeated(lines[first:], pl.indent, pl.key):
			return lines, false
		}
		lines = append(lines, pl)
	}
	return lines, len(lines) > 0 && !opensEmpty(lines, top, first)
}

// opensEmpty reports whether the top-level key at index top opens a mapping
// that has no first child: its value is then null, which the reader leaves
// to the library.
func opensEmpty(lines []plainLine, top, first int) bool {
	return len(lines) > 0 && lines[top].value == "" && first == 0
}

// repeated reports whether key is already among the lines at indentation
// indent; lines holds one mapping's keys, and those of its children.
func repeated(lines []plainLine, indent int, key string) bool {
	for _, pl := range lines {
		if pl.indent == indent && pl.key == key {
			return true
		}
	}
	return false
}

// plainKeyLine parses one non-blank line, number n of the file.
func plainKeyLine(text string, n int) (plainLine, bool) {
	pl := plainLine{line: n}
	for pl.indent < len(text) && text[pl.indent] == ' ' {
		pl.indent++
	}
	rest := text[pl.indent:]
	k := 0
	for k < len(rest) && k <= maxPlainKey && isKeyByte(rest[k], k == 0) {
		k++
	}
	if k == 0 || k > maxPlainKey || k == len(rest) || rest[k] != ':' {
		return pl, false
	}
	pl.key = rest[:k]
	rest = rest[k+1:]
	if rest == "" {
		return pl, true
	}
	if rest[0] != ' ' {
		return pl, false
	}
	v := strings.TrimLeft(rest, " ")
	if v == "" {
		return pl, true
	}
	pl.valueCol = len(text) - len(v) + 1
	var ok bool
	pl.value, pl.style, ok = plainValue(strings.TrimRight(v, " "))
	return pl, ok
}

// isKeyByte reports whether b may be in a key; the first byte of one may not
// be '-' or '.'.
func isKeyByte(b byte, first bool) bool {
	switch {
	case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9', b == '_':
		return true
	case b == '-', b == '.':
		return !first
	}
	return false
}

// plainValue returns the scalar that v, a value without its surrounding
// blanks, stands for, and its style.
func plainValue(v string) (string, yaml.Style, bool) {
	if !plainRunes(v) {
		return "", 0, false
	}
	switch q := v[0]; q {
	case '"', '\'':
		if len(v) < 2 || v[len(v)-1] != q {
			return "", 0, false
		}
		inner := v[1 : len(v)-1]
		if strings.IndexByte(inner, q) >= 0 || strings.IndexByte(inner, '\\') >= 0 {
			return "", 0, false
		}
		if q == '"' {
			return inner, yaml.DoubleQuotedStyle, true
		}
		return inner, yaml.SingleQuotedStyle, true
	}
	if strings.IndexByte("-?:,[]{}#&*!|>%@`", v[0]) >= 0 || v == "<<" ||
		strings.Contains(v, ": ") || strings.Contains(v, " #") || strings.HasSuffix(v, ":") {
		return "", 0, false
	}
	return v, 0, true
}

// plainRunes reports whether s holds only printable ASCII and valid UTF-8
// runes that YAML neither forbids nor reads as a line break or a byte order
// mark.
func plainRunes(s string) bool {
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b < ' ' || b == 0x7F {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1, r < 0xA0, r == 0x2028, r == 0x2029, r == 0xFEFF, r == 0xFFFE, r == 0xFFFF:
			return false
		}
		i += size
	}
	return true
}

// tree builds the document the YAML library builds for the lines, in
// nodes and content pointers reused from the last block.
func (sc *plainScratch) tree() *yaml.Node {
	lines := sc.lines
	sc.nodes = slices.Grow(sc.nodes[:0], 2+2*len(lines))[:2+2*len(lines)]
	sc.ptrs = slices.Grow(sc.ptrs[:0], 1+2*len(lines))[:1+2*len(lines)]
	nodes, ptrs := sc.nodes, sc.ptrs
	next := 0
	node := func() *yaml.Node { next++; return &nodes[next-1] }
	content := func(n int) []*yaml.Node {
		c := ptrs[:0:n]
		ptrs = ptrs[n:]
		return c
	}
	doc, root := node(), node()
	*doc = yaml.Node{Kind: yaml.DocumentNode, Line: lines[0].line, Column: 1, Content: content(1)}
	doc.Content = append(doc.Content, root)
	*root = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: lines[0].line, Column: 1}
	root.Content = content(2 * countAt(lines, 0))
	var parent *yaml.Node
	for i, pl := range lines {
		key := node()
		*key = yaml.Node{Kind: yaml.ScalarNode, Value: pl.key, Line: pl.line, Column: pl.indent + 1}
		key.Tag = key.ShortTag()
		value := node()
		switch {
		case pl.value == "":
			*value = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: lines[i+1].line, Column: lines[i+1].indent + 1}
			value.Content = content(2 * countAt(lines[i+1:], lines[i+1].indent))
		default:
			*value = yaml.Node{Kind: yaml.ScalarNode, Style: pl.style, Value: pl.value, Line: pl.line, Column: pl.valueCol}
			value.Tag = value.ShortTag()
		}
		if pl.indent == 0 {
			root.Content = append(root.Content, key, value)
		} else {
			parent.Content = append(parent.Content, key, value)
		}
		if pl.value == "" {
			parent = value
		}
	}
	return doc
}

// countAt counts the leading lines of lines at indentation indent, after
// which the mapping they belong to ends.
func countAt(lines []plainLine, indent int) int {
	n := 0
	for _, pl := range lines {
		switch {
		case pl.indent == indent:
			n++
		case pl.indent < indent:
			return n
		}
	}
	return n
}
