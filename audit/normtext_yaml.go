package audit

import (
	"bytes"

	"gopkg.in/yaml.v3"
)

// frontMatterBlobs returns, for every string in the frontmatter of text, at
// any depth and in lists too, whose value YAML spells other than it is
// written, the value as the agent reads it: double-quoted escapes such as
// "\x69gnore" or "\u0069", single-quoted "don”t", and block scalars whose
// words run over several lines. The rules read the frontmatter as written
// already; only what YAML decodes differently is scanned again.
func frontMatterBlobs(text []byte, add func(blob)) {
	if len(text) < 4 || text[0] != '-' && text[0] != 0xef {
		return
	}
	yamlStart, y, problem := frontMatterYAML(text)
	if problem != "" || !mayDecodeYAML(y) {
		return
	}
	var root yaml.Node
	if yaml.Unmarshal(y, &root) != nil {
		return
	}
	lines := lineStarts(y)
	walkStrings(&root, 0, func(n *yaml.Node) {
		if n.Line < 1 || n.Line > len(lines) {
			return
		}
		off := yamlStart + lines[n.Line-1] + max(0, n.Column-1)
		if off >= yamlStart+len(y) || !yamlHides(n, y[off-yamlStart:]) {
			return
		}
		data := []byte(n.Value)
		if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			data = bytes.ReplaceAll(data, []byte("\n"), []byte(" "))
		}
		add(blob{start: off, end: min(lineEndAt(text, off), off+maxShownRun), encoding: "YAML quoted", data: data})
	})
}

// maxYAMLDepth bounds the nesting walked, as hostile YAML may nest deeply.
const maxYAMLDepth = 32

// walkStrings calls f for each scalar value under n, skipping mapping keys
// and aliases.
func walkStrings(n *yaml.Node, depth int, f func(*yaml.Node)) {
	if depth > maxYAMLDepth {
		return
	}
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			walkStrings(c, depth+1, f)
		}
	case yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			walkStrings(n.Content[i], depth+1, f)
		}
	case yaml.ScalarNode:
		f(n)
	}
}

// mayDecodeYAML reports whether y holds an escape, a doubled single quote
// or a block scalar: without any, every value reads as it is written.
func mayDecodeYAML(y []byte) bool {
	return bytes.IndexByte(y, '\\') >= 0 || bytes.Contains(y, []byte("''")) ||
		bytes.Contains(y, []byte(": |")) || bytes.Contains(y, []byte(": >")) ||
		bytes.Contains(y, []byte("- |")) || bytes.Contains(y, []byte("- >"))
}

// yamlHides reports whether the scalar n, written at the start of src,
// reads other than it is written in a way that splits or hides words: an
// escape for a letter or a space, a quote doubled inside a word, or a block
// whose text goes on for three lines or more.
func yamlHides(n *yaml.Node, src []byte) bool {
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0:
		return hidingEscape(quotedSource(src, '"'))
	case n.Style&yaml.SingleQuotedStyle != 0:
		return bytes.Contains(quotedSource(src, '\''), []byte("''"))
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return blockLines(src) >= 3
	}
	return false
}

// blockLines counts the lines of text of the block scalar whose indicator
// starts src: the following lines indented more than the first such line's
// indentation allows the block to end.
func blockLines(src []byte) int {
	n, indent := 0, -1
	for off := lineEndAt(src, 0) + 1; off < len(src); off = lineEndAt(src, off) + 1 {
		l := src[off:lineEndAt(src, off)]
		body := bytes.TrimLeft(l, " ")
		if len(bytes.TrimSpace(body)) == 0 {
			continue
		}
		d := len(l) - len(body)
		if indent < 0 {
			indent = d
		}
		if d < indent || d == 0 {
			break
		}
		n++
	}
	return n
}

// quotedSource returns the quoted scalar at the start of src, up to its
// closing quote.
func quotedSource(src []byte, q byte) []byte {
	for i := 1; i < len(src); i++ {
		switch {
		case q == '"' && src[i] == '\\':
			i++
		case src[i] == q && q == '\'' && i+1 < len(src) && src[i+1] == '\'':
			i++
		case src[i] == q:
			return src[:i+1]
		}
	}
	return src
}

// hidingEscape reports whether a double-quoted scalar uses an escape that
// stands for a letter, a space or a line break joined away: "\n", "\"" and
// "\\" are ordinary.
func hidingEscape(src []byte) bool {
	for i := 0; i+1 < len(src); i++ {
		if src[i] != '\\' {
			continue
		}
		switch src[i+1] {
		case 'x', 'u', 'U', 'N', '_', 'L', 'P', ' ', '\t', '\n', '\r':
			return true
		}
		i++
	}
	return false
}
