package codeflow

// node is one node of a parsed program, copied out of the parser so that
// the interpreter is plain Go: its kind and field name as the grammar
// names them, its byte range in the source, and its named children.
type node struct {
	kind       string
	field      string
	start, end int
	kids       []*node
}

// Limits of what a parse keeps: deeper or further nodes are dropped, so a
// hostile file costs at most this much to read.
const (
	maxNodes = 400_000
	maxDepth = 160
)

// child returns the first child in field name, or nil.
func (n *node) child(name string) *node {
	if n == nil {
		return nil
	}
	for _, k := range n.kids {
		if k.field == name {
			return k
		}
	}
	return nil
}

// children returns the children in field name.
func (n *node) children(name string) []*node {
	var out []*node
	for _, k := range n.kids {
		if k.field == name {
			out = append(out, k)
		}
	}
	return out
}

// first returns the first child of the given kind, or nil.
func (n *node) first(kind string) *node {
	if n == nil {
		return nil
	}
	for _, k := range n.kids {
		if k.kind == kind {
			return k
		}
	}
	return nil
}

func (n *node) text(src []byte) string {
	if n == nil || n.start < 0 || n.end > len(src) || n.start > n.end {
		return ""
	}
	return string(src[n.start:n.end])
}
